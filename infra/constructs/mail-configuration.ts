import { Aws, CfnCondition, type CfnResource, Fn, Stack, Token } from 'aws-cdk-lib';
import * as ses from 'aws-cdk-lib/aws-ses';
import { Construct } from 'constructs';

/** The CloudWatch dimension SES puts on the mail events of this configuration set (AWS/SES Send, Bounce…). */
export const MAIL_EVENTS_DIMENSION = 'ConfigurationSet';
/**
 * What SES records for every mail the app sends: the outcomes an operator is judged on
 * (docs/operations.md: Alarms and logs).
 */
export const MAIL_EVENTS = [
  ses.EmailSendingEvent.SEND,
  ses.EmailSendingEvent.DELIVERY,
  ses.EmailSendingEvent.BOUNCE,
  ses.EmailSendingEvent.COMPLAINT,
  ses.EmailSendingEvent.REJECT,
  ses.EmailSendingEvent.RENDERING_FAILURE,
] as const;

/**
 * Regions whose CloudFormation has no SES configuration sets (SES sends no mail there either), from
 * the CloudFormation validation of aws-cdk-lib 2.276: the stack still deploys there, without one.
 */
export const REGIONS_WITHOUT_MAIL_CONFIGURATION = [
  'ap-east-1',
  'ap-east-2',
  'ap-southeast-4',
  'ap-southeast-6',
  'ap-southeast-7',
  'cn-north-1',
  'cn-northwest-1',
  'eu-south-2',
  'mx-central-1',
];

/**
 * The SES configuration set every mail of the app is sent with (functions/lib/mail.ts): reputation
 * metrics (bounce and complaint rates of this app's mail) and its send, delivery, bounce and complaint
 * counts in CloudWatch, which the alarms and the dashboard read (monitoring.ts).
 */
export class MailConfiguration extends Construct {
  /** The configuration set's name (metrics and grants name it whether or not the region has one). */
  readonly name: string;
  /** What the functions send with: the name, or '' in a region without configuration sets. */
  readonly nameForSending: string;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    // Named after the stack (stack names are letters, digits and hyphens): the name is the value of
    // the CloudWatch dimension below, and the functions get it without depending on anything else.
    const stack = Stack.of(this);
    this.name = `${stack.stackName}-mail`;
    if (!Token.isUnresolved(stack.region) && REGIONS_WITHOUT_MAIL_CONFIGURATION.includes(stack.region)) {
      this.nameForSending = '';
      return;
    }
    const configurationSet = new ses.ConfigurationSet(this, 'ConfigurationSet', {
      configurationSetName: this.name,
      reputationMetrics: true,
      sendingEnabled: true,
    });
    const destination = configurationSet.addEventDestination('Metrics', {
      destination: ses.EventDestination.cloudWatchDimensions([
        { name: MAIL_EVENTS_DIMENSION, source: ses.CloudWatchDimensionSource.MESSAGE_TAG, defaultValue: this.name },
      ]),
      events: [...MAIL_EVENTS],
    });
    if (!Token.isUnresolved(stack.region)) {
      this.nameForSending = this.name;
      return;
    }
    const available = new CfnCondition(this, 'Available', {
      expression: Fn.conditionNot(
        Fn.conditionOr(...REGIONS_WITHOUT_MAIL_CONFIGURATION.map((region) => Fn.conditionEquals(Aws.REGION, region))),
      ),
    });
    for (const resource of [configurationSet, destination]) {
      (resource.node.defaultChild as CfnResource).cfnOptions.condition = available;
    }
    this.nameForSending = Fn.conditionIf(available.logicalId, this.name, '').toString();
  }
}
