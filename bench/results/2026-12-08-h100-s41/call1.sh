#!/usr/bin/env bash
# s41 call 1: test_random_gpu (exact_math's bit reads by std::bit_cast), then issue 22's and
# issue 19's rows with CuPy / PyTorch in the same call.
mkdir -p build-gpu && tar xzf .gpubin/build-gpu.tgz -C build-gpu
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/c1_tests.txt
.gpubin5/run_tests.sh random 2>&1 | tee -a $OUT/c1_tests.txt
.gpubin5/medians.sh build-gpu/bench/bench_random '.' > $OUT/c1_bench_random.txt 2>&1
timeout 200 python3 bench/cupy/cupy_random.py --out $OUT/c1_cupy_random.json > $OUT/c1_cupy_random.txt 2>&1
.gpubin5/medians.sh build-gpu/bench/bench_indexing '.' > $OUT/c1_bench_indexing.txt 2>&1
timeout 200 python3 bench/cupy/cupy_indexing.py --out $OUT/c1_cupy_indexing.json > $OUT/c1_cupy_indexing.txt 2>&1
tail -n 40 $OUT/c1_bench_random.txt $OUT/c1_bench_indexing.txt
