import { CfnCondition, CfnParameter, Duration, Fn, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { TABLE_ACTIONS } from '../../functions/lib/capabilities';
import { MAIL_EVENTS_DIMENSION } from './mail-configuration';
import { acknowledge } from './nag';

/** Where the metrics the access logs yield are kept (webhook failures). */
export const METRICS_NAMESPACE = 'Switchboard';
export const WEBHOOK_FAILURES_METRIC = 'WebhookFailures';
const PERIOD = Duration.minutes(5);

/**
 * Each alarm: its construct id (each is explained by this name in docs/operations.md: The alarms), what it
 * counts and when it fires. Thresholds are per 5 minutes unless said otherwise.
 */
export const ALARMS = {
  /** Any function of the region failed (timeout, out of memory, crash): handled errors answer envelopes and are not counted. */
  FunctionErrors: { threshold: 5 },
  /** Lambda refused invocations: the account's concurrency (shared by every function of the region) is used up. */
  FunctionThrottles: { threshold: 1 },
  /** The HTTP API answered 5xx (a function's 500 envelope, or one that failed or timed out). */
  HttpServerErrors: { threshold: 5 },
  /** Twilio's requests to /webhooks/* answered 4xx or 5xx: texts or calls are being lost. */
  WebhookFailures: { threshold: 5 },
  /** DynamoDB throttled reads or writes on the table or its indexes. */
  TableThrottles: { threshold: 1 },
  /** DynamoDB failed requests itself (HTTP 500). */
  TableSystemErrors: { threshold: 1 },
  /** The WebSocket API's functions answered 4xx/5xx or failed ($connect refusals count too). */
  RealtimeIntegrationErrors: { threshold: 10 },
  /**
   * A background job (deleting a company) failed its tries and waits in a dead-letter queue
   * (docs/product.md: Deleting a company).
   */
  BackgroundJobsFailed: { threshold: 1 },
  /** SES bounce rate (a fraction, over the last hour): SES reviews the account at 5 % and may pause it at 10 %. */
  MailBounceRate: { threshold: 0.04 },
  /** SES complaint rate (a fraction, over the last hour): SES reviews the account at 0.1 % and may pause it at 0.5 %. */
  MailComplaintRate: { threshold: 0.0008 },
} as const;
export type AlarmName = keyof typeof ALARMS;

/** The DynamoDB operations the functions use (SystemErrors is published per operation). */
export const TABLE_OPERATIONS = [
  ...TABLE_ACTIONS.sweep.filter((a) => a !== 'ConditionCheckItem'),
  'TransactWriteItems',
  'TransactGetItems',
];

export interface MonitoringProps {
  readonly table: dynamodb.ITable;
  readonly tableIndexNames: readonly string[];
  readonly httpApi: apigwv2.HttpApi;
  /** The HTTP API's access log group: webhook failures are counted from it. */
  readonly httpAccessLogs: logs.ILogGroup;
  readonly realtimeApi: apigwv2.WebSocketApi;
  readonly realtimeStageName: string;
  /** The SES configuration set of the app's mail (mail-configuration.ts). */
  readonly mailConfigurationSetName: string;
  /** Where background jobs that failed every try wait for the operator (at most 10: one alarm's metrics). */
  readonly deadLetterQueues: readonly sqs.IQueue[];
}

/**
 * Alarms that reach someone (an SNS topic, mailed to the `AlarmEmail` parameter when it is set) and a
 * dashboard of the same metrics (docs/operations.md: Alarms and logs).
 *
 * Lambda errors and throttles are alarmed on Lambda's region-wide metrics (no FunctionName): one alarm
 * per function would be two alarms and two resources for each of the ~80 functions (each template stays
 * at 300 resources: docs/architecture.md: Stack sizes), and metric math takes at most
 * 10 metrics per alarm. Throttling is a region-wide limit anyway (the account's concurrency), and the
 * dashboard breaks errors down per function of this stack.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly alarms: Record<AlarmName, cloudwatch.Alarm>;
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const stack = Stack.of(this);

    const alarmEmail = new CfnParameter(this, 'AlarmEmail', {
      type: 'String',
      default: '',
      description:
        'E-mail address the alarms are sent to (SNS asks it to confirm the subscription first). Empty: alarms only show in CloudWatch.',
      allowedPattern: '^$|^[^@\\s<>]+@[^@\\s<>]+\\.[^@\\s<>]+$',
      constraintDescription: 'must be empty or a plain e-mail address such as ops@example.com',
    });
    alarmEmail.overrideLogicalId('AlarmEmail');
    const hasAlarmEmail = new CfnCondition(this, 'HasAlarmEmail', {
      expression: Fn.conditionNot(Fn.conditionEquals(alarmEmail.valueAsString, '')),
    });
    hasAlarmEmail.overrideLogicalId('HasAlarmEmail');

    this.topic = new sns.Topic(this, 'Alarms', { displayName: `${stack.stackName} alarms`, enforceSSL: true });
    acknowledge(
      this.topic,
      'AwsSolutions-SNS2',
      'Alarm notifications carry only alarm names, metrics and states, no customer data; CloudWatch cannot publish to a topic encrypted with the AWS managed SNS key, and a customer managed key for this alone is not worth its cost.',
    );
    const subscription = new sns.Subscription(this, 'AlarmEmailSubscription', {
      topic: this.topic,
      protocol: sns.SubscriptionProtocol.EMAIL,
      endpoint: alarmEmail.valueAsString,
    });
    (subscription.node.defaultChild as sns.CfnSubscription).cfnOptions.condition = hasAlarmEmail;

    const metrics = this.metrics(props);
    const action = new actions.SnsAction(this.topic);
    const alarm = (name: AlarmName, metric: cloudwatch.IMetric, description: string, evaluationPeriods = 1) => {
      const created = new cloudwatch.Alarm(this, name, {
        alarmDescription: `${description} See docs/operations.md: Alarms and logs.`,
        metric,
        threshold: ALARMS[name].threshold,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        evaluationPeriods,
        // No requests, no data: quiet is not an outage.
        treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(action);
      created.addOkAction(action);
      return created;
    };
    this.alarms = {
      FunctionErrors: alarm(
        'FunctionErrors',
        metrics.functionErrors,
        'Lambda functions of the region failed (timeouts, crashes).',
      ),
      FunctionThrottles: alarm(
        'FunctionThrottles',
        metrics.functionThrottles,
        'Lambda throttled invocations: the concurrency of the account is used up.',
      ),
      HttpServerErrors: alarm('HttpServerErrors', metrics.httpServerErrors, 'The HTTP API answered 5xx.'),
      WebhookFailures: alarm(
        'WebhookFailures',
        metrics.webhookFailures,
        'Twilio webhooks (/webhooks/*) were answered 4xx/5xx: texts or calls may be lost.',
      ),
      TableThrottles: alarm('TableThrottles', metrics.tableThrottles, 'DynamoDB throttled requests to the table.'),
      TableSystemErrors: alarm(
        'TableSystemErrors',
        metrics.tableSystemErrors,
        'DynamoDB failed requests to the table (system errors).',
      ),
      RealtimeIntegrationErrors: alarm(
        'RealtimeIntegrationErrors',
        metrics.realtimeIntegrationErrors,
        'The WebSocket API’s functions answered errors or failed.',
      ),
      BackgroundJobsFailed: alarm(
        'BackgroundJobsFailed',
        metrics.deadLetters,
        'A background job (deleting a company) failed every try and waits in a dead-letter queue; redrive it once the cause is fixed.',
      ),
      MailBounceRate: alarm(
        'MailBounceRate',
        metrics.mailBounceRate,
        'The SES bounce rate of the account is close to the rate SES reviews accounts at (5 %).',
      ),
      MailComplaintRate: alarm(
        'MailComplaintRate',
        metrics.mailComplaintRate,
        'The SES complaint rate of the account is close to the rate SES reviews accounts at (0.1 %).',
      ),
    };

    this.dashboard = this.buildDashboard(metrics);
  }

  private metrics(props: MonitoringProps) {
    const stat = (metric: cloudwatch.Metric) => metric.with({ period: PERIOD, statistic: cloudwatch.Stats.SUM });
    const lambdaMetric = (metricName: string) =>
      new cloudwatch.Metric({ namespace: 'AWS/Lambda', metricName, period: PERIOD, statistic: 'Sum' });
    const table = props.table.tableName;

    // Access-log lines of Twilio's requests (path /webhooks/…) answered 4xx/5xx; status is logged as a string.
    const webhookFailures = new logs.MetricFilter(this, 'WebhookFailuresFilter', {
      logGroup: props.httpAccessLogs,
      metricNamespace: METRICS_NAMESPACE,
      metricName: WEBHOOK_FAILURES_METRIC,
      metricValue: '1',
      defaultValue: 0,
      filterPattern: logs.FilterPattern.all(
        logs.FilterPattern.stringValue('$.path', '=', '/webhooks/*'),
        logs.FilterPattern.any(
          logs.FilterPattern.stringValue('$.status', '=', '4*'),
          logs.FilterPattern.stringValue('$.status', '=', '5*'),
        ),
      ),
    });

    const throttleMetrics: Record<string, cloudwatch.IMetric> = {};
    const throttleDimensions = [
      { TableName: table },
      ...props.tableIndexNames.map((index) => ({ TableName: table, GlobalSecondaryIndexName: index })),
    ];
    throttleDimensions.forEach((dimensionsMap, i) => {
      for (const [kind, metricName] of [
        ['r', 'ReadThrottleEvents'],
        ['w', 'WriteThrottleEvents'],
      ] as const) {
        throttleMetrics[`${kind}${i}`] = new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName,
          dimensionsMap,
          period: PERIOD,
          statistic: 'Sum',
        });
      }
    });
    const systemErrorMetrics = Object.fromEntries(
      TABLE_OPERATIONS.map((operation, i) => [
        `e${i}`,
        new cloudwatch.Metric({
          namespace: 'AWS/DynamoDB',
          metricName: 'SystemErrors',
          dimensionsMap: { TableName: table, Operation: operation },
          period: PERIOD,
          statistic: 'Sum',
        }),
      ]),
    );
    const realtime = (metricName: string) =>
      new cloudwatch.Metric({
        namespace: 'AWS/ApiGateway',
        metricName,
        dimensionsMap: { ApiId: props.realtimeApi.apiId, Stage: props.realtimeStageName },
        period: PERIOD,
        statistic: 'Sum',
      });
    const ses = (metricName: string, dimensionsMap?: Record<string, string>) =>
      new cloudwatch.Metric({ namespace: 'AWS/SES', metricName, dimensionsMap, period: Duration.hours(1), statistic: 'Maximum' });

    return {
      functionErrors: lambdaMetric('Errors'),
      functionThrottles: lambdaMetric('Throttles'),
      functionInvocations: lambdaMetric('Invocations'),
      concurrentExecutions: lambdaMetric('ConcurrentExecutions').with({ statistic: 'Maximum' }),
      httpRequests: stat(props.httpApi.metricCount()),
      httpClientErrors: stat(props.httpApi.metricClientError()),
      httpServerErrors: stat(props.httpApi.metricServerError()),
      httpLatency: props.httpApi.metricLatency({ period: PERIOD, statistic: 'p99' }),
      webhookFailures: webhookFailures.metric({ period: PERIOD, statistic: 'Sum' }),
      tableThrottles: new cloudwatch.MathExpression({
        expression: Object.keys(throttleMetrics).join(' + '),
        usingMetrics: throttleMetrics,
        period: PERIOD,
        label: 'Throttled reads and writes (table and indexes)',
      }),
      tableSystemErrors: new cloudwatch.MathExpression({
        expression: Object.keys(systemErrorMetrics).join(' + '),
        usingMetrics: systemErrorMetrics,
        period: PERIOD,
        label: 'DynamoDB system errors',
      }),
      deadLetters: new cloudwatch.MathExpression({
        expression: props.deadLetterQueues.map((_, i) => `q${i}`).join(' + '),
        usingMetrics: Object.fromEntries(
          props.deadLetterQueues.map((queue, i) => [
            `q${i}`,
            queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
          ]),
        ),
        period: PERIOD,
        label: 'Background jobs waiting in dead-letter queues',
      }),
      realtimeConnects: realtime('ConnectCount'),
      realtimeMessages: realtime('MessageCount'),
      realtimeIntegrationErrors: realtime('IntegrationError'),
      realtimeExecutionErrors: realtime('ExecutionError'),
      // The account's rates: what SES reviews and pauses an account on.
      mailBounceRate: ses('Reputation.BounceRate'),
      mailComplaintRate: ses('Reputation.ComplaintRate'),
      // This app's own, from the configuration set.
      appMailBounceRate: ses('Reputation.BounceRate', { 'ses:configuration-set': props.mailConfigurationSetName }),
      appMailComplaintRate: ses('Reputation.ComplaintRate', { 'ses:configuration-set': props.mailConfigurationSetName }),
      mailEvents: ['Send', 'Delivery', 'Bounce', 'Complaint', 'Reject'].map(
        (metricName) =>
          new cloudwatch.Metric({
            namespace: 'AWS/SES',
            metricName,
            dimensionsMap: { [MAIL_EVENTS_DIMENSION]: props.mailConfigurationSetName },
            period: PERIOD,
            statistic: 'Sum',
          }),
      ),
    };
  }

  private buildDashboard(m: ReturnType<Monitoring['metrics']>): cloudwatch.Dashboard {
    const stack = Stack.of(this);
    const graph = (title: string, left: cloudwatch.IMetric[], right: cloudwatch.IMetric[] = []) =>
      new cloudwatch.GraphWidget({ title, left, right, width: 12, height: 6 });
    // Per function of this stack: CloudFormation names each function `<stack name>-<id>-<suffix>`.
    const perFunction = (metricName: string) =>
      new cloudwatch.MathExpression({
        expression: `SEARCH('{AWS/Lambda,FunctionName} MetricName="${metricName}" "${stack.stackName}-"', 'Sum', 300)`,
        period: PERIOD,
        label: '',
      });
    const dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      // Dashboards are global to the account: the region keeps two deployments of the stack apart.
      dashboardName: `${stack.stackName}-${stack.region}`,
      defaultInterval: Duration.hours(6),
    });
    dashboard.addWidgets(
      new cloudwatch.AlarmStatusWidget({ title: 'Alarms', alarms: Object.values(this.alarms), width: 24, height: 3 }),
    );
    dashboard.addWidgets(
      graph('Functions (region): errors and throttles', [m.functionErrors, m.functionThrottles], [m.concurrentExecutions]),
      graph('Function errors of this app, per function', [perFunction('Errors')]),
    );
    dashboard.addWidgets(
      graph('HTTP API: requests, 4xx and 5xx', [m.httpClientErrors, m.httpServerErrors], [m.httpRequests]),
      graph('Twilio webhooks answered 4xx/5xx', [m.webhookFailures], [m.httpLatency]),
    );
    dashboard.addWidgets(
      graph('DynamoDB: throttles and system errors', [m.tableThrottles, m.tableSystemErrors]),
      graph('WebSocket API', [m.realtimeIntegrationErrors, m.realtimeExecutionErrors], [m.realtimeConnects, m.realtimeMessages]),
    );
    dashboard.addWidgets(graph('Background jobs in dead-letter queues', [m.deadLetters]));
    dashboard.addWidgets(
      graph('Mail: bounce and complaint rates', [
        m.mailBounceRate,
        m.mailComplaintRate,
        m.appMailBounceRate,
        m.appMailComplaintRate,
      ]),
      graph('Mail of this app: sent, delivered, bounced, complained, rejected', m.mailEvents),
    );
    return dashboard;
  }
}
