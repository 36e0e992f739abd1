# SPDX-License-Identifier: Apache-2.0
# A/B of bench_barrier binaries: fastest repetition per row, as a ratio to the team twin of the same run.
import json, subprocess, sys, os, collections
T=sys.argv[1]; R=int(sys.argv[2]); bins=sys.argv[3:]
env=dict(os.environ, OMP_NUM_THREADS=T, KOKKOS_NUM_THREADS=T, OMP_PROC_BIND='spread', OMP_PLACES='threads')
extra=os.environ.get('AB_ENV')
if extra:
    k,v=extra.split('='); env[k]=v
res=collections.defaultdict(list)
for r in range(R):
    for b in bins:
        out=subprocess.run(['/tmp/bench_barrier_'+b,'--benchmark_filter='+os.environ.get('AB_FILTER','f64'),'--benchmark_repetitions=7','--benchmark_min_time=0.1','--benchmark_format=json'],env=env,capture_output=True,text=True).stdout
        js=json.JSONDecoder().raw_decode(out[out.index('{'):])[0]
        m={}
        for x in js['benchmarks']:
            if x.get('run_type')!='iteration': continue
            p=x['run_name'].split('/'); key=(p[2],p[3])
            m[key]=min(m.get(key,1e30),x['real_time'])
        for (v,it),t in sorted(m.items()):
            if v!='team-reduce':
                tw=m[('team-reduce',it)]
                res[(b,v,it)].append(t/tw)
                print(f"{b} r{r} {v} {it} twin={tw:.0f} kapi={t:.0f} ratio={t/tw:.2f}", flush=True)
print("summary (min-time ratios, range over rounds):")
for k,v in sorted(res.items()): print(*k, f"{min(v):.2f}-{max(v):.2f}")
