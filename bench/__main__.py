"""Run every benchmark: `python -m bench`."""

from bench import bench_evaluate

if __name__ == "__main__":
    print("== evaluate")
    bench_evaluate.run()
