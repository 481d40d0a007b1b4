#!/usr/bin/env bash
# s41 call 2: issue 20's rows (bench_linalg whole) with CuPy / PyTorch in the same call.
[[ -x build-gpu/bench/bench_linalg ]] || { mkdir -p build-gpu && tar xzf .gpubin/build-gpu.tgz -C build-gpu; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $OUT/c2_gpu.txt
timeout 330 .gpubin5/medians.sh build-gpu/bench/bench_linalg "${1:-.}" 1 > $OUT/c2_bench_linalg.txt 2>&1
timeout 250 python3 bench/cupy/cupy_linalg.py --out $OUT/c2_cupy_linalg.json > $OUT/c2_cupy_linalg.txt 2>&1
tail -n 60 $OUT/c2_bench_linalg.txt
