"""A TCP proxy to PostgreSQL that a fault run or a test can break: pass, refuse or hang.

`bench.reliability` puts it between gunicorn and the database; `tests/jobs` between a
`db_worker` and the database. `set("closed")` drops every connection and refuses new ones
(a database that is down), `set("hang")` stops forwarding and leaves new connections
unanswered (a network that went silent), `set("pass")` restores the service.
"""

import asyncio
import contextlib
import threading


class BreakableProxy:
    """A TCP proxy to PostgreSQL that can pass, refuse (a closed database) or hang."""

    def __init__(self, target_host: str, target_port: int, *, host: str = "127.0.0.1",
                 port: int = 0) -> None:  # fmt: skip
        self.target = (target_host, target_port)
        self.host, self.port = host, port  # port 0: any free port, then the one taken
        self.mode = "pass"
        self.loop = asyncio.new_event_loop()
        self.server = None
        self.writers: set[asyncio.StreamWriter] = set()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()
        self.call(self._listen())

    def call(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=10)

    async def _listen(self) -> None:
        self.server = await asyncio.start_server(self._serve, self.host, self.port)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _serve(self, reader, writer) -> None:
        if self.mode == "hang":
            self.writers.add(writer)
            await asyncio.sleep(3600)
            return
        upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        self.writers.update({writer, upstream_writer})

        async def pipe(source, sink) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await source.read(65536):
                    while self.mode == "hang":
                        await asyncio.sleep(0.1)
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pipe(reader, upstream_writer), pipe(upstream_reader, writer))

    async def _close_all(self) -> None:
        self.server.close()
        for writer in list(self.writers):
            writer.transport.abort()
        self.writers.clear()

    def set(self, mode: str) -> None:
        if mode == "closed":
            self.call(self._close_all())
        elif self.mode == "closed":
            self.call(self._listen())
        self.mode = mode

    async def _shutdown(self) -> None:
        await self._close_all()
        pending = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)

    def close(self) -> None:
        """Stop listening, drop every connection and stop the proxy's thread."""
        self.call(self._shutdown())
        self.loop.call_soon_threadsafe(self.loop.stop)
