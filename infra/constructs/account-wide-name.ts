import { Aws } from 'aws-cdk-lib';

/**
 * A name CloudFront requires to be unique in the account, whatever the region (its policies, origin
 * access controls): the stack's name and region go in, so the stack deployed to a second region of
 * the same account (docs/deploy.md: Choose the region) does not collide with the first.
 */
export const accountWideName = (name: string) => `${Aws.STACK_NAME}-${Aws.REGION}-${name}`;
