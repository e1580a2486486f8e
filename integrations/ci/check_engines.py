#!/usr/bin/env python3
"""check_engines.py CHECK ARGS...: the checks run_engines.sh makes on what the engines wrote.

  tasks DIR RECORDINGS BUILDS [--scheduler=array|srun:JOB|none] [--runs=N]   task-N/ folders: a GPU each,
                                                      every GPU; N runs of each build (MEMBENCH_RUNS)
  node DIR RECORDINGS BUILDS                          node-*/ folder: every GPU at once
  fleet DIR RECORDINGS [--runs=N]                     the fleet report: the slowed GPU alone is the outlier
  joined JSON EXIT RECORDINGS --runs=N --build=B      fleet over two submissions' folders: the slowed GPU
                                                      alone, each GPU of build B with both's files as N runs
  reframe REPORT RECORDINGS                           ReFrame's run report: the slowed GPU alone fails
  k8s-static DIR                                      the manifests: Indexed, one GPU a pod, one volume
  k8s-replay DIR STANDIN REPORT WORK                  the Jobs' containers run here, as the kubelet would

Each check prints one "ok:" line per fact, or "FAIL:" lines and exits 1.
"""
import json
import os
import re
import socket
import subprocess
import sys
from pathlib import Path

from membench import schema as S  # membench's key names

C = S.context
SLURM = {C.job_slurm_job_id: "job", C.job_slurm_array_task_id: "array task", C.job_slurm_node: "node"}
FAILURES = []


def check(condition, message):
    print(f"  {'ok' if condition else 'FAIL'}: {message}")
    if not condition:
        FAILURES.append(message)
    return condition


def manifest(recordings):
    """The stand-in's GPUs: index, UUID and slowdown of each (make_recordings.py's manifest)."""
    return json.loads((Path(recordings) / "manifest.json").read_text())


def slow_uuids(recordings):
    return {g["gpu_uuid"] for g in manifest(recordings) if g["slowdown"] > 1}


def context(path):
    return json.loads(Path(path).read_text())[S.file.context]


def run_files(build, runs):
    """A build's files in a task folder: <build>.json, or <build>.run<R>.json for MEMBENCH_RUNS > 1."""
    return [f"{build}.json"] if runs == 1 else [f"{build}.run{r}.json" for r in range(1, runs + 1)]


def task_facts(task, name, scheduler):
    """What one task's JSON says of where it ran, and what in it is wrong for `scheduler`."""
    ctx = context(task / name)
    index, wrong = task.name.split("-")[1], []
    slurm = {SLURM[k]: v for k, v in ctx.items() if k in SLURM}
    if scheduler == "array" and (slurm.get("array task") != index or "job" not in slurm):
        wrong.append(f"not array task {index} of a Slurm job: {slurm}")
    if scheduler.startswith("srun:") and (slurm.get("job") != scheduler[5:] or "array task" in slurm):
        wrong.append(f"not a task of Slurm job {scheduler[5:]}: {slurm}")
    if scheduler == "none" and slurm:
        wrong.append(f"a Slurm job where there was none: {slurm}")
    host = ctx.get(S.gbench_context.host_name)
    if host != socket.gethostname():
        wrong.append(f"host_name {host}")
    where = ", ".join(f"Slurm {k} {v}" for k, v in sorted(slurm.items())) or "no Slurm job"
    return ctx[C.gpu_uuid], f"{where}, host {host}", wrong


def check_tasks(folder, recordings, builds, scheduler="none", runs=1):
    """task-N/ folders, one per GPU, each with every build's JSON (`runs` of each). scheduler:
    `array` (Slurm array tasks), `srun:JOB` (tasks of one job step), `none` (a Kubernetes pod,
    the local launcher)."""
    names = [n for b in builds for n in run_files(b, runs)]
    gpus = manifest(recordings)
    tasks = sorted(Path(folder).glob("task-*"), key=lambda p: int(p.name.split("-")[1]))
    check(len(tasks) == len(gpus), f"{len(tasks)} task folders for {len(gpus)} GPUs in {folder}")
    seen = []
    for task in tasks:
        missing = [n for n in names if not (task / n).is_file()]
        written = f"{task.name}: {', '.join(names)} written" + (f"; missing {missing}" if missing else "")
        if not check(not missing, written):
            continue
        facts = [task_facts(task, n, scheduler) for n in names]
        uuids = {u for u, _, _ in facts}
        wrong = [w for _, _, ws in facts for w in ws]
        said = f"{task.name}: {facts[0][0]}, {facts[0][1]}" + (f"; {wrong}" if wrong else "")
        check(len(uuids) == 1 and not wrong, said)
        seen.append(facts[0][0])
    check(sorted(seen) == sorted(g["gpu_uuid"] for g in gpus),
          f"each task measured its own GPU: {len(set(seen))} distinct UUIDs, every GPU once")


def check_node(folder, recordings, builds):
    """A node-*/ folder: membench --devices=all's file per GPU and build, each run beside the others."""
    gpus = manifest(recordings)
    nodes = list(Path(folder).glob("node-*"))
    if not check(len(nodes) == 1, f"one node folder in {folder}"):
        return
    for build in builds:
        files = [nodes[0] / f"{build}.gpu{g['index']}-{g['gpu_uuid']}.json" for g in gpus]
        present = [f for f in files if f.is_file()]
        concurrent = {context(f).get(C.membench_concurrent_devices) for f in present}
        check(len(present) == len(gpus) and concurrent == {str(len(gpus))},
              f"{nodes[0].name}: {len(present)} of {len(gpus)} {build}.gpuN-UUID.json, concurrent devices {concurrent}")


def outliers_in(fleet_json):
    """The UUIDs fleet's JSON calls outliers (its record per GPU and fleet)."""
    return {g["uuid"] for g in fleet_json.get("gpus", []) if g.get("verdict") == "outlier"}


def check_fleet(folder, recordings, runs=None):
    folder = Path(folder)
    code = (folder / "fleet.exit").read_text().strip() if (folder / "fleet.exit").is_file() else "missing"
    check(code == "1", f"fleet exit code recorded: {code} (1: an outlier)")
    for name in ("fleet.txt", "fleet.md", "fleet.json", "fleet-baseline.json", "reframe-references.json"):
        f = folder / name
        check(f.is_file() and f.stat().st_size > 0, f"{name} written ({f.stat().st_size if f.is_file() else 0} bytes)")
    if (folder / "fleet.json").is_file():
        called = outliers_in(json.loads((folder / "fleet.json").read_text()))
        check(called == slow_uuids(recordings), f"fleet.json's outliers {sorted(called)}: the slowed GPU alone")
        if runs is not None:
            seen = {g["runs"] for g in json.loads((folder / "fleet.json").read_text()).get("gpus", [])}
            check(seen == {runs}, f"fleet took each GPU's files as its runs: {sorted(seen)} a GPU (want {runs})")
    if (folder / "fleet.txt").is_file():
        slow = next(iter(slow_uuids(recordings)))
        line = [l for l in (folder / "fleet.txt").read_text().splitlines() if slow in l]
        check(bool(line), f"fleet.txt names the slowed GPU: {line[0].strip() if line else ''}")


def check_joined(fleet_json, code, recordings, runs, build):
    check(code == "1", f"fleet over both submissions: exit {code} (1: an outlier)")
    doc = json.loads(Path(fleet_json).read_text())
    called = outliers_in(doc)
    check(called == slow_uuids(recordings), f"its outliers {sorted(called)}: the slowed GPU alone")
    builds = [f.get("build") for f in doc.get("fleets", [])]
    seen = {g["runs"] for g in doc.get("gpus", []) if 0 <= g.get("fleet", -1) < len(builds) and builds[g["fleet"]] == build}
    check(seen == {runs}, f"each {build} GPU took both submissions' files as its runs: {sorted(seen)} (want {runs})")


def check_reframe(report, recordings):
    gpus = {g["index"]: g for g in manifest(recordings)}
    cases = [tc for run in json.loads(Path(report).read_text())["runs"] for tc in run["testcases"]]
    for tc in sorted(cases, key=lambda t: t["gpu"]):
        g = gpus.get(tc["gpu"])
        if g is None:
            check(tc["result"] == "skip", f"{tc['name']}: skipped (no GPU {tc['gpu']} on the node)")
            continue
        want = "fail" if g["slowdown"] > 1 else "pass"  # references come from the fleet report
        check(tc["result"] == want and (want == "pass" or tc.get("fail_phase") == "performance"),
              f"{tc['name']}: {tc['result']} {tc.get('fail_phase') or ''} (want {want}), GPU {tc.get('gpu_uuid')}")
        check(tc.get("gpu_uuid") == g["gpu_uuid"], f"{tc['name']}: its report keeps the GPU's UUID")


def load_yaml(path):
    import yaml  # PyYAML, from the engines' virtual environment (kubernetes-validate needs it)
    return yaml.safe_load(Path(path).read_text())


def pod_spec(job):
    return job["spec"]["template"]["spec"]


def check_k8s_static(folder):
    folder = Path(folder)
    names = ("membench-job.yaml", "membench-fleet-job.yaml", "membench-pvc.yaml")
    job, fleet, pvc = (load_yaml(folder / n) for n in names)
    spec = job["spec"]
    check(spec.get("completionMode") == "Indexed", "membench Job: completionMode Indexed")
    check(spec.get("parallelism") == spec.get("completions"),
          "membench Job: every pod at once (parallelism = completions)")
    limits = pod_spec(job)["containers"][0]["resources"]["limits"]
    check(limits.get("nvidia.com/gpu") == 1, "membench Job: one GPU a pod (nvidia.com/gpu: 1)")
    check("nvidia.com/gpu" not in json.dumps(fleet), "fleet Job: no GPU")
    for name, j in (("membench", job), ("fleet", fleet)):
        claims = [v["persistentVolumeClaim"]["claimName"] for v in pod_spec(j)["volumes"]]
        check(claims == [pvc["metadata"]["name"]], f"{name} Job: results on the claim {pvc['metadata']['name']}")
    check("ReadWriteMany" in pvc["spec"]["accessModes"], "the claim is ReadWriteMany (pods on several nodes)")


def container_env(container, set_env, volume, local):
    """The container's environment as the kubelet makes it, after `kubectl set env` of set_env:
    values, $(VAR) references, the node's name; paths under the volume's mount point mapped
    to the local folder that stands in for the volume."""
    env = {}
    for e in container.get("env", []):
        if e["name"] in set_env or "value" in e:
            value = set_env.get(e["name"], e.get("value", ""))
            env[e["name"]] = re.sub(r"\$\((\w+)\)", lambda m: env.get(m.group(1), m.group(0)), value)
        elif e.get("valueFrom", {}).get("fieldRef", {}).get("fieldPath") == "spec.nodeName":
            env[e["name"]] = socket.gethostname()
    return {k: local + v.removeprefix(volume) if v.startswith(volume) else v for k, v in env.items()}


def installed_commands(dockerfile):
    """What the image installs on PATH: `install -m 755 SRC /usr/local/bin/NAME` lines."""
    text = Path(dockerfile).read_text()
    return {name: src for src, name in re.findall(r"install -m 755 (\S+) /usr/local/bin/(\S+)", text)}


def run_container(job, repo, set_env, local, extra_env):
    """One container of the Job, here: its command as the Dockerfile installed it, its
    environment, the image's membench replaced by the stand-in (extra_env)."""
    container = pod_spec(job)["containers"][0]
    volume = container["volumeMounts"][0]["mountPath"]
    commands = installed_commands(repo / "integrations/kubernetes/Dockerfile")
    argv = list(container["command"]) + list(container.get("args", []))
    if argv[0] not in commands:
        return f"{argv[0]} is not installed by the Dockerfile"
    env = {k: v for k, v in os.environ.items() if k != "CUDA_VISIBLE_DEVICES" and not k.startswith("SLURM")}
    env.update({**container_env(container, set_env, volume, local), **extra_env})
    with open(Path(local).parent / "containers.log", "a") as log:
        return subprocess.run(["bash", str(repo / commands[argv[0]])] + argv[1:], env=env, cwd=repo,
                              stdout=log, stderr=subprocess.STDOUT).returncode


def check_k8s_replay(folder, standin, report, work, run="k8s-replay"):
    """The Indexed Job's pods, then the fleet Job, run here as run.sh starts them (MEMBENCH_RUN_ID
    set per run), with the stand-in for the image's membench: the volume is WORK/results, and
    each pod's one GPU the stand-in's GPU <completion index>."""
    # The tree the manifests are in (the source tree, or an install prefix's share/membench/):
    # the image's commands are its integrations/ paths.
    repo = Path(folder).resolve().parent.parent
    job, fleet = load_yaml(Path(folder) / "membench-job.yaml"), load_yaml(Path(folder) / "membench-fleet-job.yaml")
    local = str(Path(work) / "results")
    image = {"MEMBENCH_BIN": str(standin), "MEMBENCH_REPORT": str(report)}
    Path(local).mkdir(parents=True, exist_ok=True)
    codes = [run_container(job, repo, {"MEMBENCH_RUN_ID": run}, local,
                           {**image, "JOB_COMPLETION_INDEX": str(i), "CUDA_VISIBLE_DEVICES": str(i)})
             for i in range(job["spec"]["completions"])]
    check(codes == [0] * len(codes), f"{len(codes)} pods (completions): membench-task exit codes {codes}")
    run_dir = Path(local) / f"membench-{run}"
    indices = [(t.name, context(t / "membench.json").get(C.job_completion_index))
               for t in sorted(run_dir.glob("task-*"))]
    check(all(name == f"task-{i}" for name, i in indices) and indices,
          f"each pod's JSON has its job_completion_index: {', '.join(f'{n}={i}' for n, i in indices)}")
    code = run_container(fleet, repo, {"MEMBENCH_RUN_ID": run}, local, image)
    check(code == 1, f"fleet Job: membench-fleet exit {code} (want 1: an outlier)")
    return run_dir


def main(args):
    if not args:
        print(__doc__)
        return 2
    what, rest = args[0], args[1:]
    flags = {a.split("=")[0]: a.split("=", 1)[-1] for a in rest if a.startswith("--")}
    rest = [a for a in rest if not a.startswith("--")]
    if what == "tasks":
        check_tasks(rest[0], rest[1], rest[2].split(), flags.get("--scheduler", "none"), int(flags.get("--runs", "1")))
    elif what == "node":
        check_node(rest[0], rest[1], rest[2].split())
    elif what == "fleet":
        check_fleet(rest[0], rest[1], int(flags["--runs"]) if "--runs" in flags else None)
    elif what == "joined":
        check_joined(rest[0], rest[1], rest[2], int(flags["--runs"]), flags["--build"])
    elif what == "reframe":
        check_reframe(rest[0], rest[1])
    elif what == "k8s-static":
        check_k8s_static(rest[0])
    elif what == "k8s-replay":
        folder, standin, report, work = rest
        run_dir = check_k8s_replay(folder, standin, report, work)
        pod = pod_spec(load_yaml(Path(folder) / "membench-job.yaml"))["containers"][0]
        builds = {e["name"]: e.get("value") for e in pod["env"]}["MEMBENCH_BUILDS"].split()
        check_tasks(run_dir, Path(standin) / "recordings", builds)
        check_fleet(run_dir, Path(standin) / "recordings")
    else:
        print(f"check_engines.py: unknown check {what}", file=sys.stderr)
        return 2
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
