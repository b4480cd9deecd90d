"""moto's server mode for the tests, with two gaps filled.

moto 5.2's Aurora DSQL backend serves us-east-1 and us-east-2 only (botocore lists no DSQL
endpoints); the Temporal environment deploys to eu-west-1, where DSQL is available. The
backend's region list is extended before the server creates any backend.

moto's ECS gives every container of a task exit code 0, so a task that failed cannot be told
from one that worked. A stand-in that runs a task's program here (the FOLIO mover's) stops the
task with StopTask and the reason "exit <code>: ...", and its containers stop with that code,
as ECS reports an essential container's exit.
"""

import re
import sys

from moto.dsql import models as dsql
from moto.ecs import models as ecs
from moto.server import main

dsql.dsql_backends._additional_regions = [*dsql.dsql_backends._additional_regions, "eu-west-1"]

_stop_task = ecs.EC2ContainerServiceBackend.stop_task


def _stop_task_with_exit_code(self, cluster_str, task_str, reason):
    task = _stop_task(self, cluster_str, task_str, reason)
    exited = re.match(r"exit (\d+)\b", reason or "")
    for container in task.containers:
        container.last_status = "STOPPED"
        if exited:
            container.exitCode = int(exited.group(1))
    return task


ecs.EC2ContainerServiceBackend.stop_task = _stop_task_with_exit_code

if __name__ == "__main__":
    main(sys.argv[1:])
