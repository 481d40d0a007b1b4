#!/usr/bin/env bash
# medians.sh BIN FILTER [REPS]: the Google Benchmark rows of BIN matching FILTER, REPS (3)
# repetitions, one line a row: the median GPU time (us) and the counters.
export LD_LIBRARY_PATH=$PWD/build-gpu/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
"$1" --benchmark_filter="$2" --benchmark_repetitions="${3:-3}" --benchmark_report_aggregates_only=true \
  --benchmark_format=json 2>/dev/null | python3 -c '
import json,sys
d=json.load(sys.stdin)
c=d["context"]
print(c.get("gpu"), "copy_ceiling_GBps", c.get("copy_ceiling_GBps"), c.get("gemm_f32_ceiling_TFLOPs", ""), c.get("gemm_f64_ceiling_TFLOPs", ""))
rows=d["benchmarks"]
agg=any(r.get("run_type")=="aggregate" for r in rows)
for r in rows:
    if (r.get("aggregate_name")=="median") if agg else True:
        n=r["run_name"].split("/min_time")[0].split("/iterations")[0]
        t=r["real_time"]*{"ns":1e-3,"us":1,"ms":1e3,"s":1e6}[r["time_unit"]]
        extra=" ".join("%s=%.4g"%(k,v) for k,v in r.items() if isinstance(v,(int,float)) and k not in ("real_time","cpu_time","iterations","repetitions","repetition_index","threads","family_index","per_family_instance_index"))
        print("%-48s %10.2f us  %s %s"%(n,t,extra,r.get("label","")))'
