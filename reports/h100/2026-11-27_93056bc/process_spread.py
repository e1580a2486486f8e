#!/usr/bin/env python3
"""process_spread.py SET...: for the kernel rows under 20 us, how far a row's figure (batch_us
where the row has one, else its median) moves from one process to the next (sd over the
processes of a set, pooled over the sets; this folder's table: b0 b1 c0 c1) against a run's own batch interval, and what a gate of
three processes a side can find at 99 % with power 0.9: 3.86 x sqrt(2/3) x the relative sd."""
import json,glob,statistics as st,math
import sys
import os
# SETS: folders of kernel processes runNN.json (here b0 b1 c0 c1, in this order).
if len(sys.argv) < 2:
    print("usage: process_spread.py SET... (folders of runNN.json)", file=sys.stderr); sys.exit(2)
for d in sys.argv[1:]:
    if not os.path.isdir(d) or not glob.glob(d+'/run*.json'):
        print(f"process_spread.py: {d} is not a folder of runNN.json", file=sys.stderr); sys.exit(2)
sets={f's{i}': d for i, d in enumerate(sys.argv[1:])}
rows={}
for k,d in sets.items():
    for f in sorted(glob.glob(d+'/run*.json')):
        for b in json.load(open(f))['benchmarks']:
            if b.get('run_type')!='iteration': continue
            rows.setdefault(b['name'],{}).setdefault(k,[]).append((b.get('batch_us'),b['real_time'],b.get('batch_ci_low_us'),b.get('batch_ci_high_us')))
allsd=[]
print("| row | single us | batch us | run's own half-width (batch, 95 %) | process sd, us (each set) | pooled sd us | pooled sd % | max/min over a set's runs | smallest change found 9 in 10 times, 3 v 3 at 99 % | processes a side for +5 % |")
print("|---|---|---|---|---|---|---|---|---|---|")
out=[]
for n,v in rows.items():
    single=st.median([x[1] for x in v['s0']])
    if single>=20 or any(k not in v for k in sets): continue
    ss=0;df=0;sds=[];mm=[];hw=[];ms=[]
    for k in sets:
        xs=[x[0] if x[0] else x[1] for x in v[k]]
        hw+= [ (x[3]-x[2])/2/x[0]*100 for x in v[k] if x[0]]
        m=st.mean(xs); ms.append(m); sds.append(st.stdev(xs)); ss+=sum((x-m)**2 for x in xs); df+=len(xs)-1; mm.append(max(xs)/min(xs)-1)
    sd=math.sqrt(ss/df); t=st.mean(ms); allsd.append((t,sd))
    rel=sd/t; mdc=3.858*math.sqrt(2/3)*rel*100; need=math.ceil(2*(3.858*rel/0.05)**2)
    out.append((single,f"| `{n.replace('/manual_time','')}` | {single:.2f} | {t:.2f} | {st.median(hw):.2f} % | {' '.join(f'{s:.3f}' for s in sds)} | {sd:.3f} | {100*rel:.2f} % | {100*min(mm):.1f}-{100*max(mm):.1f} % | {mdc:.1f} % | {need} |"))
for _,l in sorted(out): print(l)
import statistics
print("\nrms of pooled sd over rows < 20 us:", math.sqrt(sum(s*s for _,s in allsd)/len(allsd)), "median", statistics.median([s for _,s in allsd]))
