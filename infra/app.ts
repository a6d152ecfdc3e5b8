import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { SwitchboardStack } from './switchboard-stack';

const app = new App();
new SwitchboardStack(app, 'Switchboard', {
  description: 'Switchboard: customer service for companies that use Twilio',
});
// Every AwsSolutions finding fails or warns the synth unless it is acknowledged, with a reason, in code.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
