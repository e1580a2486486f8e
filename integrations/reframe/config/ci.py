# ReFrame configuration of membench's CI cluster (integrations/ci/run_engines.sh): one Slurm
# node with four GPUs, stand-ins that replay recorded runs. Two partitions over the same
# node: `local` (the local scheduler, one test at a time) and `slurm` (Slurm through its
# squeue backend, which needs no accounting database; --distribute works on it).
# The Slurm partition's name is CI's slurm.conf's (MEMBENCH_CI_PARTITION, default ci).
import os

from membench.reframe_logging import logging  # the membench package (python/): PYTHONPATH or pip install

GPUS = {'type': 'gpu', 'num_devices': 4}

site_configuration = {
    'systems': [{
        'name': 'membenchci',
        'descr': "membench's CI: one Slurm node, four stand-in GPUs",
        'hostnames': ['.*'],
        'modules_system': 'nomod',
        'partitions': [
            {
                'name': 'local',
                'descr': 'this machine, one test at a time',
                'scheduler': 'local',
                'launcher': 'local',
                'environs': ['builtin'],
                'devices': [GPUS],
                'max_jobs': 1,
            },
            {
                'name': 'slurm',
                'descr': 'the Slurm partition, every GPU of a node per test',
                'scheduler': 'squeue',
                'launcher': 'srun',
                'access': [f"--partition={os.getenv('MEMBENCH_CI_PARTITION', 'ci')}"],
                'environs': ['builtin'],
                'devices': [GPUS],
                'resources': [{'name': '_rfm_gpu', 'options': ['--gres=gpu:{num_gpus_per_node}']}],
                'max_jobs': 4,
            },
        ],
    }],
    'logging': logging,
}
