# ReFrame configuration for a site running membench's test (membench_check.py): a GPU
# partition under Slurm and the machine ReFrame runs on. Edit the lines marked SITE.
import subprocess

from membench.reframe_logging import logging  # the membench package (python/): PYTHONPATH or pip install

GPUS_PER_NODE = 4                                   # SITE: GPUs per node of the partition


def local_gpus():
    """This machine's GPUs, as nvidia-smi lists them (1 where it cannot say)."""
    try:
        out = subprocess.run(['nvidia-smi', '-L'], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        return 1
    return max(1, sum(line.startswith('GPU ') for line in out.splitlines()))


site_configuration = {
    'systems': [{
        'name': 'site',                             # SITE: your system's name
        'descr': 'a GPU cluster',
        'hostnames': ['.*'],                        # SITE: regexes of the login nodes' host names
        'modules_system': 'nomod',                  # SITE: lmod, tmod4, ... where membench is a module
        'partitions': [
            {
                'name': 'gpu',
                'descr': 'GPU nodes under Slurm',
                'scheduler': 'slurm',               # SITE: squeue where Slurm keeps no accounting (sacct)
                'launcher': 'srun',
                'access': ['--partition=gpu'],      # SITE: partition, account (--account=...), QOS
                'environs': ['builtin'],
                'devices': [{'type': 'gpu', 'num_devices': GPUS_PER_NODE}],
                # How this Slurm hands out GPUs; SITE: --gpus-per-node={num_gpus_per_node} where preferred.
                'resources': [{'name': '_rfm_gpu', 'options': ['--gres=gpu:{num_gpus_per_node}']}],
                'time_limit': '30m',
            },
            {
                'name': 'local',
                'descr': 'this machine, one test at a time',
                'scheduler': 'local',
                'launcher': 'local',
                'environs': ['builtin'],
                'devices': [{'type': 'gpu', 'num_devices': local_gpus()}],
                'max_jobs': 1,
            },
        ],
    }],
    'logging': logging,
}
