"""Run every benchmark: `python -m bench`."""

from bench import (
    bench_closest,
    bench_configure,
    bench_evaluate,
    bench_fleet,
    bench_quote_pdf,
    bench_recommend,
    bench_work,
)

if __name__ == "__main__":
    print("== evaluate")
    bench_evaluate.run()
    print("\n== recommend, by catalog size")
    bench_recommend.run()
    print("\n== audit_fleet, end to end")
    bench_fleet.run()
    print("\n== quote PDF")
    bench_quote_pdf.run()
    print("\n== recommend, what the work adds")
    bench_work.run()
    print("\n== configurator page")
    bench_configure.run()
    print("\n== recommend, what the closest builds add")
    bench_closest.run()
