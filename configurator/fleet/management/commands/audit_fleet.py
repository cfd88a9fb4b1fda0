"""`manage.py audit_fleet FILE [--json]`: audit a fleet sheet from the command line (api.md).

Exit codes: 0 every node accepted, 1 any node rejected or unreadable, 2 the file itself
cannot be read (a one-line reason on stderr, no traceback). An XLSX is read within
`sheet.COMMAND_LIMITS`: wider than a web upload's, still no entity expansion.
"""

import json
import sys
import time

from django.core.management.base import BaseCommand, CommandError, CommandParser

from configurator.fleet.report import Timings, audit_stream
from configurator.fleet.sheet import COMMAND_LIMITS, SheetError

BAR_WIDTH = 30


class Command(BaseCommand):
    help = "Audit every node of a fleet sheet (CSV or XLSX) against the current rules."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="CSV (UTF-8 or GBK) or XLSX fleet sheet")
        parser.add_argument("--json", action="store_true", help="print a JSON list of nodes")
        parser.add_argument("--profile", help="rule profile slug (default: the default profile)")
        parser.add_argument("--no-progress", action="store_true", help="no progress bar")
        parser.add_argument(
            "--timings", action="store_true", help="print reading/evaluating/writing seconds"
        )

    def handle(self, *args, **options) -> None:
        code = self.audit(options)
        if code:
            sys.exit(code)

    def progress(self, share: float, rows: int) -> None:
        filled = round(share * BAR_WIDTH)
        bar = "#" * filled + "-" * (BAR_WIDTH - filled)
        self.stderr.write(f"\r[{bar}] {share:4.0%} {rows:,} rows", ending="")
        self.stderr.flush()

    def audit(self, options: dict) -> int:
        started = time.perf_counter()
        timings = Timings()
        show = not options["no_progress"]
        try:
            with open(options["file"], "rb") as stream:
                auditor, chunks = audit_stream(
                    stream,
                    profile=options["profile"],
                    on_progress=self.progress if show else None,
                    timings=timings,
                    limits=COMMAND_LIMITS,  # an operator's own file: Excel's whole height
                )
                out = self.stdout
                first = True
                if options["json"]:
                    out.write("[", ending="")
                for chunk in chunks:
                    began = time.perf_counter()
                    if options["json"]:
                        items = auditor.json_items(chunk)
                        if items:
                            out.write(("\n" if first else ",\n") + ",\n".join(items), ending="")
                            first = False
                    else:
                        self.write_text(auditor, chunk)
                    timings.writing += time.perf_counter() - began
        except FileNotFoundError as error:
            reason = f"Cannot open {options['file']}: no such file."
            raise CommandError(reason, returncode=2) from error
        except OSError as error:  # a folder, no permission, an unreadable disk
            reason = f"Cannot read {options['file']}: {error.strerror or error}."
            raise CommandError(reason, returncode=2) from error
        except KeyError as error:
            reason = f"Unknown rule profile {options['profile']!r}."
            raise CommandError(reason, returncode=2) from error
        except SheetError as error:
            if show:
                self.stderr.write("")
            raise CommandError(str(error), returncode=2) from error
        if show:
            self.stderr.write("")
        summary = auditor.summary.as_dict()
        if options["json"]:
            self.stdout.write("\n]")
        else:
            self.write_summary(summary, auditor.version)
        if options["timings"]:
            total = time.perf_counter() - started
            figures = {**timings.as_dict(), "total": total}
            self.stderr.write(json.dumps({k: round(v, 3) for k, v in figures.items()}))
        return 0 if summary["accepted"] == summary["nodes"] else 1

    def write_text(self, auditor, chunk) -> None:
        """Print one line per node that is not accepted."""
        lines = []
        for node_id, row, index in zip(chunk.node_ids, chunk.rows, chunk.result_index, strict=True):
            result = auditor.results[index]
            if result.verdict == "accept":
                continue
            if result.errors:
                detail = "; ".join(
                    f"{column}: {' '.join(messages)}" for column, messages in result.errors.items()
                )
            else:
                detail = f"{' '.join(result.codes) or '-'}  balance {result.balance['overall']}"
            lines.append(f"{node_id or '-'}\trow {row}\t{result.verdict}\t{detail}")
        if lines:
            self.stdout.write("\n".join(lines))

    def write_summary(self, summary: dict, version) -> None:
        codes = ", ".join(f"{code} ×{count}" for code, count in summary["codes"].items()) or "-"
        expected = summary["utilisation_expected"]
        self.stdout.write(
            f"{summary['nodes']} nodes ({summary['distinct_builds']} distinct builds), "
            f"rules {version.profile} v{version.version}: {summary['accepted']} accepted, "
            f"{summary['rejected']} rejected, {summary['errors']} unreadable\n"
            f"unbalanced: {summary['share_unbalanced']:.1%}; failing checks: {codes}\n"
            + (
                f"estimated GPU utilisation {expected:.1%} (88.6% once fixed): "
                f"{summary['gpus_lost']} of {summary['gpus']} GPUs' worth lost"
                if expected is not None
                else "no node could be evaluated"
            )
        )
