"""moto's server mode for the tests, with one gap filled.

moto 5.2's Aurora DSQL backend serves us-east-1 and us-east-2 only (botocore lists no DSQL
endpoints); the Temporal environment deploys to eu-west-1, where DSQL is available. The
backend's region list is extended before the server creates any backend.
"""

import sys

from moto.dsql import models as dsql
from moto.server import main

dsql.dsql_backends._additional_regions = [*dsql.dsql_backends._additional_regions, "eu-west-1"]

if __name__ == "__main__":
    main(sys.argv[1:])
