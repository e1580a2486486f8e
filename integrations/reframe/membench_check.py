# membench as a ReFrame regression test: one test per GPU of a node, each a run-only test of
# membench's tier on that GPU, with a performance variable per JSON row (the row's median
# time, us; the median over its repetitions where --benchmark_repetitions wrote it several
# times; named as membench-report names the row, with ':' written '=') and references
# per GPU model and build from the file that
# `membench-report fleet --baseline-out FILE --baseline-format reframe` writes.
#
# One test per GPU: the parameter `gpu` is the CUDA device index within the node, up to
# MEMBENCH_RFM_MAX_GPUS (default 8); indices past the GPUs the partition declares
# (`devices: [{'type': 'gpu', 'num_devices': N}]`) are skipped. Under a scheduler the job holds
# every GPU of its node (and the node, exclusive_access) and measures one of them alone;
# with --distribute ReFrame makes the tests once per node. Each test keeps its GPU's identity
# as read from the JSON (gpu_uuid, gpu_name, gpu_host: in the run report and the perflog),
# never a value over the node.
#
# Variables (-S NAME=VALUE): membench (the executable; the build's name picks the reference),
# tier, benchmark_filter (a regex: only these rows; default the tier's every row), references
# (the reference file; empty: performance is logged, not judged), extra_args (more options,
# split as a shell splits them: quote one that holds blanks). Several builds:
# -P build=membench,membench_ca,membench_cg with membench_dir set to their folder.
import json
import math
import os
import shlex
import statistics

import reframe as rfm
import reframe.utility.sanity as sn
from reframe.core.builtins import parameter, run_after, run_before, sanity_function, variable
from reframe.core.exceptions import SanityError

import membench
from membench import schema as S  # membench's key names

C, R = S.context, S.row
TIME_UNITS_US = {'ns': 1e-3, 'us': 1.0, 'ms': 1e3, 's': 1e6}
BUILDS = {'membench': 'default', 'membench_ca': 'ca', 'membench_cg': 'cg'}
OUTPUT = 'membench.json'


class SettingError(RuntimeError):
    """A bad setting of the test file. Not a ValueError: ReFrame skips a test file whose load
    raises one (a user's error) with a warning, and then reports a run of no test as passed;
    any other error stops the run, exit 1, with the message."""


MAX_GPUS_BOUND = 1024  # more GPUs than any one node has


def max_gpus():
    """MEMBENCH_RFM_MAX_GPUS (default 8): how many GPU indices get a test, a whole number of 1
    to 1024 (0 would make no test at all, which ReFrame reports as nothing failed; a huge
    count makes ReFrame build that many tests before anything runs)."""
    text = os.getenv('MEMBENCH_RFM_MAX_GPUS', '8')
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_GPUS_BOUND:
        raise SettingError(f'MEMBENCH_RFM_MAX_GPUS={text!r}: not a whole number of GPUs '
                           f'from 1 to {MAX_GPUS_BOUND}')
    return value


MAX_GPUS = max_gpus()


def measured(row):
    """A row membench timed (a membench.Row): no error, and a real_time (membench.load has
    refused one that is no finite number)."""
    return row.error is None and row.time is not None


def is_time(row):
    """A row whose real_time is a time: not an aggregate of another unit (the cv aggregate of
    --benchmark_repetitions is a fraction, aggregate_unit `percentage`), which logged in us
    would read as a time."""
    return row.get(R.aggregate_unit, 'time') == 'time'


def row_time_us(row):
    """A row's median time in microseconds (Google Benchmark's real_time in its time_unit); a
    unit it does not know fails the test, named, never a guess or a KeyError."""
    unit = row.time_unit
    if not isinstance(unit, str) or unit not in TIME_UNITS_US:
        raise SanityError(f"row {row.name!r}: time_unit {unit!r} is none of {', '.join(TIME_UNITS_US)}")
    return row.time * TIME_UNITS_US[unit]


def row_times_us(rows):
    """{row name: its time, us} of the timed rows: a row --benchmark_repetitions wrote several
    times is the median over its repetitions, as membench-report reads it, never whichever
    repetition came last."""
    times = {}
    for r in rows:
        times.setdefault(r.name, []).append(row_time_us(r))
    return {name: statistics.median(us) for name, us in times.items()}


def reference_tuple(references, name, value):
    """One row's reference as ReFrame takes it, (ref, lower, upper, unit): a number and two
    thresholds (numbers, or None for no bound), the unit a string; else the test fails naming
    the file and the row, never a TypeError from ReFrame's performance stage."""
    def number(x, bound_may_be_none):
        return (x is None and bound_may_be_none) or (
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x))
    if (isinstance(value, list) and len(value) == 4 and number(value[0], False) and number(value[1], True)
            and number(value[2], True) and isinstance(value[3], str)):
        return tuple(value)
    raise SanityError(f'{references}: the reference of {name!r} is {json.dumps(value)[:80]}, '
                      'not [ref, lower, upper, unit]')


def read_references(path):
    """The references file: a JSON object of objects (GPU model/build: row: reference), read as
    membench reads JSON (a key given twice refused: which reference was meant is unknown);
    one that cannot be read, is not JSON or not of that shape fails the test, naming the file."""
    try:
        table = membench.read_document(path)
    except json.JSONDecodeError as e:  # json's words do not name the file
        raise SanityError(f'{path}: no references file (not JSON: {e})') from e
    except (OSError, ValueError) as e:  # membench's and the OS's words name it
        raise SanityError(f'no references file: {e}') from e
    if not isinstance(table, dict) or not all(isinstance(v, dict) for v in table.values()):
        raise SanityError(f'{path}: not a references file (an object of GPU model/build: {{row: reference}})')
    return table


def row_key(row_name):
    """A row as membench-report names it: without Google Benchmark's /manual_time."""
    return row_name.removesuffix('/manual_time')


def perf_name(row_name):
    """A row's performance variable: its name without ':' (ReFrame's scope separator in references)."""
    return row_key(row_name).replace(':', '=')


def membench_options(gpu, tier, benchmark_filter, extra_args):
    """membench's command-line options, each quoted for the shell: ReFrame writes them into the
    job script as they are. extra_args is split as a shell splits it (an option with blanks in
    quotes stays one option); nothing in any of them runs as a command."""
    opts = [f'--device={gpu}', f'--suite={tier}', f'--benchmark_out={OUTPUT}', '--benchmark_out_format=json']
    if benchmark_filter:
        opts.append(f'--benchmark_filter={benchmark_filter}')
    return [shlex.quote(o) for o in opts + shlex.split(extra_args)]


def reference_key(context):
    """The reference file's key for a run: GPU model and build, as membench-report fleet writes it."""
    return f"{context.get(C.gpu_name, '?')}/{context.get(C.membench_cache_mode, 'default')}"


@rfm.simple_test
class membench_gpu_check(rfm.RunOnlyRegressionTest):
    descr = 'membench on one GPU: the median time of each row against its GPU model\'s fleet'
    valid_systems = ['*']
    valid_prog_environs = ['*']
    tags = {'membench'}
    gpu = parameter(range(MAX_GPUS))
    build = variable(str, value='membench')
    membench_dir = variable(str, value='')
    tier = variable(str, value='quick')
    benchmark_filter = variable(str, value='')
    extra_args = variable(str, value='')
    references = variable(str, value='')
    # What the JSON said about the GPU that ran: who it is, not which index it had.
    gpu_uuid = variable(str, value='')
    gpu_name = variable(str, value='')
    gpu_host = variable(str, value='')
    num_tasks = 1
    exclusive_access = True

    def node_gpus(self):
        declared = self.current_partition.select_devices('gpu')
        return sum(d.num_devices for d in declared) if declared else 1

    @run_after('setup')
    def one_gpu_of_the_node(self):
        gpus = self.node_gpus()
        self.skip_if(self.gpu >= gpus, f'GPU {self.gpu}: the partition declares {gpus} per node')
        # The job holds the node's every GPU (CUDA device N is GPU N) and measures one alone.
        self.num_gpus_per_node = gpus
        self.executable = shlex.quote(os.path.join(self.membench_dir, self.build) if self.membench_dir else self.build)
        self.executable_opts = membench_options(self.gpu, self.tier, self.benchmark_filter, self.extra_args)

    def result(self):
        """membench's JSON as membench.load reads it: a key given twice, a row that is no
        object, a real_time that is no finite number fail the test, named, never a traceback
        or a row silently dropped or judged on one of two values."""
        try:
            return membench.load(os.path.join(self.stagedir, OUTPUT))
        except json.JSONDecodeError as e:  # json's words do not name the file
            raise SanityError(f'no membench JSON: {OUTPUT}: not JSON: {e}') from e
        except (OSError, ValueError) as e:
            raise SanityError(f'no membench JSON: {e}') from e

    @sanity_function
    def every_row_verified(self):
        # None: the scheduler does not say (Slurm without accounting, ReFrame's squeue backend).
        if self.job.exitcode not in (0, None):
            raise SanityError(f'membench exited {self.job.exitcode} (see {self.stdout} and {self.stderr})')
        run = self.result()
        context = run.context
        self.gpu_uuid = context.get(C.gpu_uuid, '')
        self.gpu_name = context.get(C.gpu_name, '')
        self.gpu_host = context.get(S.gbench_context.host_name, '')
        if not self.gpu_uuid:
            raise SanityError('the JSON names no GPU (no gpu_uuid in its context)')
        rows = run.rows
        failed = [r.name for r in rows if r.error is not None and not r.skipped]
        if failed or not rows:
            raise SanityError(f'rows failed: {failed[:5]}' if failed else 'no rows')
        # Every row skipped (peer rows with one GPU visible): nothing was timed, nothing vouched for.
        if not any(measured(r) for r in rows):
            raise SanityError(f'no row measured: all {len(rows)} were skipped or have no time')
        row_times_us([r for r in rows if measured(r) and is_time(r)])  # an unknown unit fails here, named
        return True

    @run_before('performance')
    def rows_as_performance(self):
        run = self.result()
        # Rows that failed, or were skipped (peer rows with one GPU visible), have no time; an
        # aggregate that is no time (cv) is no performance in us.
        times = row_times_us([r for r in run if measured(r) and is_time(r)])
        self.perf_variables = {
            perf_name(name): sn.make_performance_function(lambda t=t: t, 'us') for name, t in times.items()
        }
        if self.references:
            table = read_references(self.references)
            key = reference_key(run.context)
            if key not in table:
                raise SanityError(f'{self.references} has no reference for {key}')
            # The file is keyed by row name, as membench-report writes it (with or without the suffix).
            refs = table[key]
            judged = {}
            for row_name in times:
                name = row_key(row_name) if row_key(row_name) in refs else row_name
                if name in refs:
                    judged[perf_name(row_name)] = reference_tuple(self.references, name, refs[name])
            # References asked for that judge nothing (another tier's rows): every row would
            # be logged only, and the test pass unjudged.
            if not judged:
                raise SanityError(f'{self.references} has none of the {len(times)} rows measured for {key}: '
                                  'no row was judged')
            self.reference = {'*': judged}
