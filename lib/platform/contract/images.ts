import { join } from 'node:path';
import * as ecr from 'aws-cdk-lib/aws-ecr';
import * as assets from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import type { Construct } from 'constructs';
import type { ImageRef } from '../../../config';

const ROOT = join(__dirname, '../../..');

/**
 * A container image from config. An ECR repository is looked up by name (no API call: the
 * URI is built from the stack's account and region) and pulls are granted on that
 * repository only. An asset directory is staged by synth and built by `cdk deploy`, so
 * synth never needs Docker.
 */
export function containerImage(scope: Construct, id: string, ref: ImageRef): ecs.ContainerImage {
  if ('ecr' in ref) return ecs.ContainerImage.fromEcrRepository(ecr.Repository.fromRepositoryName(scope, id, ref.ecr.repository), ref.ecr.tag);
  if ('registry' in ref) return ecs.ContainerImage.fromRegistry(ref.registry);
  return ecs.ContainerImage.fromAsset(join(ROOT, ref.asset), { platform: assets.Platform.LINUX_ARM64 });
}
