"""moto's server mode for the tests, with its gaps filled where the tests reach them.

moto 5.2's Aurora DSQL backend serves us-east-1 and us-east-2 only (botocore lists no DSQL
endpoints); the Temporal environment deploys to eu-west-1, where DSQL is available. The
backend's region list is extended before the server creates any backend.

moto's ECS gives every container of a task exit code 0, so a task that failed cannot be told
from one that worked. A stand-in that runs a task's program here (the FOLIO mover's) stops the
task with StopTask and the reason "exit <code>: ...", and its containers stop with that code,
as ECS reports an essential container's exit.

The CDK's toolkit deploys through moto's CloudFormation (a campaign's deploy stage). Where moto
answers otherwise than CloudFormation does, it is made to answer as CloudFormation documents:
UpdateTerminationProtection exists; an executed change set sets the stack's outputs and is
deleted with the stack's other change sets; DeleteChangeSet succeeds on a change set that is not
there, and DescribeChangeSet then says ChangeSetNotFound; an SSM-typed parameter's previous value
is the parameter's name, not what it resolved to; UpdateStack's UsePreviousValue keeps a
default, and UsePreviousTemplate takes a template a change set left; a KMS key's tags are
CloudFormation's Key/Value. A resource type moto does not model is kept in the stack with a
name (its Ref) and attributes (an ARN for Arn), nothing created, where moto would leave it out
and fail every Fn::GetAtt on it.
"""

import json
import re
import sys

from moto.cloudformation import parsing
from moto.cloudformation.exceptions import CloudFormationError
from moto.cloudformation.models import ChangeSet, CloudFormationBackend, Stack
from moto.cloudformation.responses import CloudFormationResponse
from moto.core.common_models import CloudFormationModel
from moto.core.responses import ActionResult
from moto.dsql import models as dsql
from moto.ecs import models as ecs
from moto.kms import models as kms
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


def _update_termination_protection(self):
    stack = self.cloudformation_backend.get_stack(self._get_param("StackName"))
    stack.enable_termination_protection = str(self._get_param("EnableTerminationProtection")).lower() == "true"
    return ActionResult({"StackId": stack.stack_id})


CloudFormationResponse.update_termination_protection = _update_termination_protection

_resolve_update_parameters = CloudFormationBackend._resolve_update_parameters


def _resolve_update_parameters_with_defaults(self, instance, incoming_params):
    kept = [p for p in incoming_params if not p.get("UsePreviousValue") or p["ParameterKey"] in instance.parameters]
    return _resolve_update_parameters(self, instance, kept)


CloudFormationBackend._resolve_update_parameters = _resolve_update_parameters_with_defaults

_apply = ChangeSet.apply


def _apply_with_outputs(self):
    _apply(self)
    self.stack.template_dict = self.template_dict
    self.stack.output_map = self.stack._create_output_map()


ChangeSet.apply = _apply_with_outputs

_execute_change_set = CloudFormationBackend.execute_change_set


def _execute_change_set_and_delete(self, change_set_name, stack_name=None):
    executed = self.describe_change_set(change_set_name)
    _execute_change_set(self, change_set_name, stack_name)
    for arn in [arn for arn, cs in self.change_sets.items() if cs.stack_id == executed.stack_id]:
        del self.change_sets[arn]


CloudFormationBackend.execute_change_set = _execute_change_set_and_delete

_delete_change_set = CloudFormationBackend.delete_change_set


def _has_change_set(backend, name_or_arn):
    return name_or_arn in backend.change_sets or any(cs.change_set_name == name_or_arn for cs in backend.change_sets.values())


def _delete_change_set_if_any(self, change_set_name):
    if _has_change_set(self, change_set_name):
        _delete_change_set(self, change_set_name)


CloudFormationBackend.delete_change_set = _delete_change_set_if_any


class _ChangeSetNotFound(CloudFormationError):
    code = "ChangeSetNotFound"
    status_code = 404


_describe_change_set = CloudFormationBackend.describe_change_set


def _describe_change_set_or_not_found(self, change_set_name):
    if _has_change_set(self, change_set_name):
        return _describe_change_set(self, change_set_name)
    raise _ChangeSetNotFound(f"ChangeSet [{change_set_name}] does not exist")


CloudFormationBackend.describe_change_set = _describe_change_set_or_not_found

_stack_parameters = Stack.stack_parameters.fget


def _stack_parameters_as_given(self):
    parameters = dict(_stack_parameters(self))
    for key, slot in (self.template_dict.get("Parameters") or {}).items():
        if str(slot.get("Type", "")).startswith("AWS::SSM::Parameter::Value"):
            parameters[key] = self.parameters.get(key, slot.get("Default"))
    return parameters


Stack.stack_parameters = property(_stack_parameters_as_given)

_update_stack = CloudFormationBackend.update_stack


def _update_stack_with_parsed_template(self, name, template, role_arn, parameters, tags):
    return _update_stack(self, name, template if isinstance(template, str) else json.dumps(template), role_arn, parameters, tags)


CloudFormationBackend.update_stack = _update_stack_with_parsed_template

_key_from_cloudformation = kms.Key.create_from_cloudformation_json.__func__


def _key_from_cloudformation_with_tags(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
    properties = cloudformation_json.setdefault("Properties", {})
    properties["Tags"] = [{"TagKey": t["Key"], "TagValue": t["Value"]} for t in properties.get("Tags", [])]
    return _key_from_cloudformation(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs)


kms.Key.create_from_cloudformation_json = classmethod(_key_from_cloudformation_with_tags)


class _Recorded(CloudFormationModel):
    """A resource of a type moto's CloudFormation does not model: in the stack with its name, nothing created."""

    __module__ = "moto.cloudformation.models"  # moto's model registry files a model under its service

    def __init__(self, name, resource_type, account_id, region_name):
        self.physical_resource_id = name
        self.arn = f"arn:aws:{resource_type.split('::')[1].lower()}:{region_name}:{account_id}:{name}"

    @staticmethod
    def cloudformation_name_type():
        return ""

    @staticmethod
    def cloudformation_type():
        return ""

    @classmethod
    def has_cfn_attr(cls, attr):
        return True

    def get_cfn_attribute(self, attribute_name):
        return self.arn if attribute_name.endswith("Arn") else f"{self.physical_resource_id}.{attribute_name}"

    @classmethod
    def create_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name, **kwargs):
        return cls(resource_name, kwargs["ResourceType"], account_id, region_name)

    @classmethod
    def update_from_cloudformation_json(cls, original_resource, new_resource_name, cloudformation_json, account_id, region_name):
        return original_resource

    @classmethod
    def delete_from_cloudformation_json(cls, resource_name, cloudformation_json, account_id, region_name):
        pass


_parse_resource = parsing.parse_resource


def _parse_resource_or_record(resource_json, resources_map):
    parsed = _parse_resource(resource_json, resources_map)
    if parsed:
        return parsed
    resource_json.setdefault("Properties", {})
    return _Recorded, parsing.clean_json(resource_json, resources_map), resource_json["Type"]


parsing.parse_resource = _parse_resource_or_record

if __name__ == "__main__":
    main(sys.argv[1:])
