"""ReFrame logging for membench's test (integrations/reframe): what its site configuration
(config/generic.py) and CI's (config/ci.py) share. Progress on stdout, and a perflog line per
GPU and row with the GPU's UUID and host as the JSON gave them (perflogs/<system>/<partition>/).

    from membench.reframe_logging import logging
    site_configuration = {..., 'logging': logging}
"""
logging = [{
    'handlers': [
        {'type': 'stream', 'name': 'stdout', 'level': 'info', 'format': '%(message)s'},
        {'type': 'file', 'name': 'reframe.log', 'level': 'debug',
         'format': '[%(asctime)s] %(levelname)s: %(check_info)s: %(message)s', 'append': False},
    ],
    'handlers_perflog': [{
        'type': 'filelog',
        'prefix': '%(check_system)s/%(check_partition)s',
        'level': 'info',
        'format': ('%(check_job_completion_time)s|%(check_result)s|%(check_build)s|%(check_gpu)s|'
                   '%(check_gpu_uuid)s|%(check_gpu_name)s|%(check_gpu_host)s|%(check_job_nodelist)s|'
                   '%(check_perf_var)s|%(check_perf_value)s|%(check_perf_unit)s|'
                   '%(check_perf_ref)s|%(check_perf_lower_thres)s|%(check_perf_upper_thres)s|%(check_perf_result)s'),
        'append': True,
    }],
    'perflog_multiline': True,
}]
