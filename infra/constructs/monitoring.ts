import { Aws, CfnCondition, CfnParameter, Duration, Fn, Stack } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { TABLE_ACTIONS } from '../../functions/lib/capabilities';
import { METRICS_NAMESPACE, TIME_USED_METRIC } from '../../functions/lib/metrics';
import { MAIL_EVENTS_DIMENSION } from './mail-configuration';
import { acknowledge } from './nag';

/** Where the metrics the access logs yield and the functions report are kept. */
export { METRICS_NAMESPACE, TIME_USED_METRIC };
export const WEBHOOK_FAILURES_METRIC = 'WebhookFailures';
export const ORIGIN_REFUSALS_METRIC = 'OriginRefusals';
const PERIOD = Duration.minutes(5);
/** CloudWatch takes at most 10 metrics in one alarm's metric math. */
export const MAX_ALARM_METRICS = 10;
/** How old the oldest waiting step of a company's deletion may be: a step takes at most minutes. */
export const DELETION_STEP_MAX_AGE = Duration.hours(1);

/**
 * Each alarm: its construct id (each is explained by this name in docs/operations.md: The alarms), what it
 * counts and when it fires. Thresholds are per 5 minutes unless said otherwise.
 */
export const ALARMS = {
  /**
   * A function of this stack that no API answers for (the background jobs, the origin authorizer)
   * failed: timeout, out of memory, crash. The routes' functions fail as HttpServerErrors and
   * RealtimeIntegrationErrors.
   */
  FunctionErrors: { threshold: 5 },
  /** Lambda refused invocations of those functions: the account's concurrency is used up. */
  FunctionThrottles: { threshold: 1 },
  /** An invocation of a route or webhook used 80 % of its function's time: it is close to being stopped. */
  FunctionTimeNearLimit: { threshold: 80 },
  /** The HTTP API answered 5xx (a function's 500 envelope, or one that failed or timed out). */
  HttpServerErrors: { threshold: 5 },
  /** Twilio's requests to /webhooks/* answered 4xx or 5xx: texts or calls are being lost. */
  WebhookFailures: { threshold: 5 },
  /** DynamoDB throttled reads or writes on the table or its indexes. */
  TableThrottles: { threshold: 1 },
  /** DynamoDB failed requests itself (HTTP 500). */
  TableSystemErrors: { threshold: 1 },
  /**
   * Writes refused because another transaction held their items. The table client sends them again
   * (docs/architecture.md: How the functions meet contention), so a few are normal; this many means
   * writers keep meeting on one item and requests slow down or fail.
   */
  TableTransactionConflicts: { threshold: 100 },
  /**
   * CloudFront's requests refused before any function ran (403 from the origin authorizer): CloudFront
   * is not sending the origin secret the APIs accept, e.g. after a botched rotation (docs/deploy.md: The origin secret).
   */
  OriginRefusals: { threshold: 20 },
  /** The WebSocket API's functions answered 4xx/5xx or failed ($connect refusals count too). */
  RealtimeIntegrationErrors: { threshold: 10 },
  /**
   * A background job (deleting a company) failed its tries and waits in a dead-letter queue, or its
   * oldest step has waited longer than DELETION_STEP_MAX_AGE (docs/product.md: Deleting a company).
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
  /** Where background jobs that failed every try wait for the operator. */
  readonly deadLetterQueues: readonly sqs.IQueue[];
  /** The queues background jobs go on in steps: their oldest waiting step must not be old. */
  readonly jobQueues: readonly sqs.IQueue[];
  /**
   * This stack's functions that no API answers for: the queue consumers, the scheduled jobs and the
   * origin authorizer. Every other function's failures are the APIs' errors.
   */
  readonly backgroundFunctions: readonly lambda.IFunction[];
}

/**
 * Alarms that reach someone (an SNS topic, mailed to the `AlarmEmail` parameter when it is set) and a
 * dashboard of the same metrics (docs/operations.md: Alarms and logs).
 *
 * Every alarm counts this stack's own resources. A function of a route fails as an answer of its API
 * (a 5xx, or a WebSocket integration error), so Lambda's errors and throttles are alarmed only for the
 * functions no API answers for, a few metrics in one metric-math alarm: an alarm per function would be
 * two alarms and two resources for each of the ~80 functions (each template stays at 300 resources:
 * docs/architecture.md: Stack sizes), and metric math takes at most MAX_ALARM_METRICS. The dashboard
 * breaks errors down per function of this stack.
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
    // enforceSSL makes CDK write a topic policy, which replaces the topic's default one, and with it the
    // Allow that CloudWatch needs to publish: without this statement no alarm reaches anyone. Only this
    // account's alarms of this stack (their names begin with the stack's) may.
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'CloudWatchAlarmsPublish',
        effect: iam.Effect.ALLOW,
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Aws.ACCOUNT_ID },
          ArnLike: { 'aws:SourceArn': alarmArnsOf(stack) },
        },
      }),
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
        'Background jobs or the origin authorizer of this stack failed (timeouts, crashes).',
      ),
      FunctionThrottles: alarm(
        'FunctionThrottles',
        metrics.functionThrottles,
        'Lambda throttled background jobs or the origin authorizer of this stack: the concurrency of the account is used up.',
      ),
      FunctionTimeNearLimit: alarm(
        'FunctionTimeNearLimit',
        metrics.functionTimeUsed,
        'A route or webhook used most of its function’s time: Twilio or the table is slow, or it meets contention.',
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
      TableTransactionConflicts: alarm(
        'TableTransactionConflicts',
        metrics.tableTransactionConflicts,
        'Writes to the table keep meeting other transactions on the same items.',
      ),
      OriginRefusals: alarm(
        'OriginRefusals',
        metrics.originRefusals,
        'The origin authorizer refused requests: CloudFront is not sending the origin secret the APIs accept.',
      ),
      RealtimeIntegrationErrors: alarm(
        'RealtimeIntegrationErrors',
        metrics.realtimeIntegrationErrors,
        'The WebSocket API’s functions answered errors or failed.',
      ),
      BackgroundJobsFailed: alarm(
        'BackgroundJobsFailed',
        metrics.deadLetters,
        'A background job (deleting a company) failed every try and waits in a dead-letter queue, or its next step has waited too long; redrive it once the cause is fixed.',
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
    if (props.backgroundFunctions.length > MAX_ALARM_METRICS) {
      throw new Error(
        `The function alarms take at most ${MAX_ALARM_METRICS} functions (metric math), not ${props.backgroundFunctions.length}`,
      );
    }
    /** One metric of each background function, added up. */
    const ofBackgroundFunctions = (metricName: 'Errors' | 'Throttles', label: string) => {
      // Ids apart per metric: one graph shows both.
      const id = (i: number) => `${metricName.charAt(0).toLowerCase()}f${i}`;
      return new cloudwatch.MathExpression({
        expression: props.backgroundFunctions.map((_, i) => id(i)).join(' + '),
        usingMetrics: Object.fromEntries(
          props.backgroundFunctions.map((fn, i) => [id(i), fn.metric(metricName, { period: PERIOD, statistic: 'Sum' })]),
        ),
        period: PERIOD,
        label,
      });
    };
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

    // Requests the origin authorizer refused (API Gateway's own "Forbidden", before any route's function).
    const originRefusals = new logs.MetricFilter(this, 'OriginRefusalsFilter', {
      logGroup: props.httpAccessLogs,
      metricNamespace: METRICS_NAMESPACE,
      metricName: ORIGIN_REFUSALS_METRIC,
      metricValue: '1',
      defaultValue: 0,
      filterPattern: logs.FilterPattern.all(
        logs.FilterPattern.stringValue('$.status', '=', '403'),
        logs.FilterPattern.stringValue('$.error', '=', 'Forbidden'),
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
      functionErrors: ofBackgroundFunctions('Errors', 'Errors of the background jobs and the origin authorizer'),
      functionThrottles: ofBackgroundFunctions('Throttles', 'Throttles of the background jobs and the origin authorizer'),
      functionTimeUsed: new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: TIME_USED_METRIC,
        period: PERIOD,
        statistic: 'Maximum',
      }),
      regionFunctionErrors: lambdaMetric('Errors'),
      regionFunctionThrottles: lambdaMetric('Throttles'),
      concurrentExecutions: lambdaMetric('ConcurrentExecutions').with({ statistic: 'Maximum' }),
      httpRequests: stat(props.httpApi.metricCount()),
      httpClientErrors: stat(props.httpApi.metricClientError()),
      httpServerErrors: stat(props.httpApi.metricServerError()),
      httpLatency: props.httpApi.metricLatency({ period: PERIOD, statistic: 'p99' }),
      webhookFailures: webhookFailures.metric({ period: PERIOD, statistic: 'Sum' }),
      originRefusals: originRefusals.metric({ period: PERIOD, statistic: 'Sum' }),
      tableTransactionConflicts: new cloudwatch.Metric({
        namespace: 'AWS/DynamoDB',
        metricName: 'TransactionConflict',
        dimensionsMap: { TableName: table },
        period: PERIOD,
        statistic: 'Sum',
      }),
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
      // 1 when a job waits in a dead-letter queue or a step has waited too long on its queue: one
      // alarm (a resource, and its metrics' cost) for "background work is not getting done".
      deadLetters: new cloudwatch.MathExpression({
        expression: `IF(${[
          ...props.deadLetterQueues.map((_, i) => `q${i} >= 1`),
          ...props.jobQueues.map((_, i) => `a${i} >= ${DELETION_STEP_MAX_AGE.toSeconds()}`),
        ].join(' OR ')}, 1, 0)`,
        usingMetrics: Object.fromEntries([
          ...props.deadLetterQueues.map((queue, i) => [
            `q${i}`,
            queue.metricApproximateNumberOfMessagesVisible({ period: PERIOD, statistic: 'Maximum' }),
          ]),
          ...props.jobQueues.map((queue, i) => [
            `a${i}`,
            queue.metricApproximateAgeOfOldestMessage({ period: PERIOD, statistic: 'Maximum' }),
          ]),
        ]),
        period: PERIOD,
        label: 'Background jobs failed or waiting too long',
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
      graph('Background functions: errors and throttles', [m.functionErrors, m.functionThrottles], [m.functionTimeUsed]),
      graph('Function errors of this app, per function', [perFunction('Errors')]),
    );
    dashboard.addWidgets(
      graph(
        'Functions (region): errors and throttles',
        [m.regionFunctionErrors, m.regionFunctionThrottles],
        [m.concurrentExecutions],
      ),
      graph('Function throttles of this app, per function', [perFunction('Throttles')]),
    );
    dashboard.addWidgets(
      graph('HTTP API: requests, 4xx and 5xx', [m.httpClientErrors, m.httpServerErrors], [m.httpRequests]),
      graph(
        'Twilio webhooks answered 4xx/5xx, requests the origin refused',
        [m.webhookFailures, m.originRefusals],
        [m.httpLatency],
      ),
    );
    dashboard.addWidgets(
      graph(
        'DynamoDB: throttles, system errors and transaction conflicts',
        [m.tableThrottles, m.tableSystemErrors],
        [m.tableTransactionConflicts],
      ),
      graph('WebSocket API', [m.realtimeIntegrationErrors, m.realtimeExecutionErrors], [m.realtimeConnects, m.realtimeMessages]),
    );
    dashboard.addWidgets(graph('Background jobs failed or waiting too long', [m.deadLetters]));
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

/**
 * The ARNs of this stack's alarms: CloudFormation names each `<stack name>-<construct id>…`. CloudWatch
 * publishes to the topic on their behalf (aws:SourceArn).
 */
export function alarmArnsOf(stack: Stack): string {
  return `arn:${Aws.PARTITION}:cloudwatch:${Aws.REGION}:${Aws.ACCOUNT_ID}:alarm:${stack.stackName}-*`;
}
