import * as fs from 'node:fs';
import type * as cdk from 'aws-cdk-lib';
import { Annotations, Aws, Duration, Fn, RemovalPolicy, Stack } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3assets from 'aws-cdk-lib/aws-s3-assets';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { ORIGIN_SECRET_HEADER } from '../../functions/lib/config';
import { HASHED_ASSET_CACHE_CONTROL, HASHED_ASSETS_DIR, PAGE_CACHE_CONTROL } from '../../web/cache-control';
import { accountWideName } from './account-wide-name';
import { acknowledge, acknowledgeWildcardResource } from './nag';
import { spaResponseHeadersPolicy } from './spa-response-headers';

/**
 * Buckets are kept when the stack is deleted (as CDK's default), but not after a rolled-back first
 * create: a failed first deploy leaves nothing behind.
 */
const BUCKET_REMOVAL = RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE;

/** Days CloudFront and S3 access logs are kept. */
export const ACCESS_LOG_EXPIRATION = Duration.days(90);

/**
 * Viewer-request rewrite of the SPA's client-side routes (a last path segment without a file
 * extension) to /index.html. Only on the bucket's behaviour: a distribution-wide error response
 * would turn the API's 404 envelopes into index.html.
 */
const SPA_REWRITE = `function handler(event) {
  var request = event.request;
  var last = request.uri.substring(request.uri.lastIndexOf('/') + 1);
  if (last.indexOf('.') === -1) {
    request.uri = '/index.html';
  }
  return request;
}`;

/**
 * Viewer-request rewrite of the socket's public path (docs/product.md §7) to the WebSocket stage: API Gateway
 * stages have no sub-paths, so `/ws/company/{companyId}` becomes `/ws`, the company going along as the
 * `companyId` query parameter that `$connect` compares with its ticket's. Plain `/ws` passes unchanged.
 */
export const WS_PATH_REWRITE = `function handler(event) {
  var request = event.request;
  var match = /^\\/ws\\/company\\/([^\\/]+)\\/?$/.exec(request.uri);
  if (match) {
    request.uri = '/ws';
    request.querystring.companyId = { value: match[1] };
  }
  return request;
}`;

/**
 * How long CloudFront waits for the WebSocket API to send anything (the origin's response, or read,
 * timeout): it closes a socket whose origin stays silent that long. The default, 30 s, is the
 * heartbeat's period (SOCKET_HEARTBEAT_MS); a beat asks for an answer once the server has been silent
 * for SOCKET_ANSWER_AFTER_MS (45 s), and a hidden tab's timers fire only about once a minute (browsers
 * throttle them), so the origin may stay silent for up to about 105 s. 120 s is above that, and the most
 * CloudFront's quotas allow without an increase ("Response timeout per origin", 1-120 s); its
 * WebSocket idle limit and API Gateway's are 10 minutes.
 */
export const WEBSOCKET_ORIGIN_READ_TIMEOUT = Duration.seconds(120);
/**
 * How long CloudFront keeps an idle connection to the WebSocket API open (default 5 s): as long, the
 * most of "Keep-alive timeout per origin" (1-120 s) too.
 */
export const WEBSOCKET_ORIGIN_KEEPALIVE_TIMEOUT = Duration.seconds(120);

/** Headers of the WebSocket opening handshake that API Gateway needs from the browser. */
const WEBSOCKET_HEADERS = ['Sec-WebSocket-Key', 'Sec-WebSocket-Version', 'Sec-WebSocket-Protocol', 'Sec-WebSocket-Extensions'];

export interface WebHostingProps {
  /**
   * Sent by CloudFront to the API origins as ORIGIN_SECRET_HEADER; functions refuse requests without
   * it. A dynamic reference, resolved when the distribution is updated (so it names a secret version).
   */
  readonly originSecret: string;
  /** Whether CloudFront can deliver standard logs to a bucket in this region (not in opt-in regions). */
  readonly accessLogs: 'on' | 'off' | cdk.CfnCondition;
  /** The WAF web ACL of the distribution, if any. */
  readonly webAclArn?: string;
  /** `{apiId}.execute-api.{region}.amazonaws.com` of the HTTP API (its `$default` stage). */
  readonly httpApiDomain: string;
  /** `{apiId}.execute-api.{region}.amazonaws.com` of the WebSocket API, whose stage is named like the `/ws` path. */
  readonly realtimeApiDomain: string;
  /** `{bucket}.s3.{region}.amazonaws.com` of the pictures bucket, where the browser uploads and reads pictures. */
  readonly picturesDomain: string;
  /** The built SPA (`web/dist`); uploaded when it exists at synth time. */
  readonly webDistPath: string;
}

/**
 * One public origin: CloudFront serves the SPA from a private bucket (origin access control) and
 * forwards `/api/*` and `/webhooks/*` to the HTTP API and `/ws` to the WebSocket API.
 */
export class WebHosting extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly bucket: s3.Bucket;
  readonly logsBucket: s3.Bucket;

  constructor(scope: Construct, id: string, props: WebHostingProps) {
    super(scope, id);

    this.logsBucket = new s3.Bucket(this, 'LogsBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // CloudFront standard logging writes with an ACL grant, which needs ACLs enabled on the bucket.
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      lifecycleRules: [{ expiration: ACCESS_LOG_EXPIRATION }],
      removalPolicy: BUCKET_REMOVAL,
    });

    this.bucket = new s3.Bucket(this, 'SiteBucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      encryption: s3.BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      serverAccessLogsBucket: this.logsBucket,
      serverAccessLogsPrefix: 's3-site/',
      removalPolicy: BUCKET_REMOVAL,
    });

    const originHeaders = { [ORIGIN_SECRET_HEADER]: props.originSecret };
    const apiOrigin = new origins.HttpOrigin(props.httpApiDomain, {
      protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
      originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
      customHeaders: originHeaders,
    });
    const apiBehavior: cloudfront.BehaviorOptions = {
      origin: apiOrigin,
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
    };
    const realtimeBehavior: cloudfront.BehaviorOptions = {
      origin: new origins.HttpOrigin(props.realtimeApiDomain, {
        protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
        originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
        customHeaders: originHeaders,
        readTimeout: WEBSOCKET_ORIGIN_READ_TIMEOUT,
        keepaliveTimeout: WEBSOCKET_ORIGIN_KEEPALIVE_TIMEOUT,
      }),
      viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
      cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
      originRequestPolicy: new cloudfront.OriginRequestPolicy(this, 'WebSocketRequestPolicy', {
        originRequestPolicyName: accountWideName('websocket'),
        comment: 'WebSocket handshake: the single-use ticket in the query string and the Sec-WebSocket-* headers',
        queryStringBehavior: cloudfront.OriginRequestQueryStringBehavior.all(),
        headerBehavior: cloudfront.OriginRequestHeaderBehavior.allowList(...WEBSOCKET_HEADERS),
        cookieBehavior: cloudfront.OriginRequestCookieBehavior.none(),
      }),
      functionAssociations: [
        {
          eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
          function: new cloudfront.Function(this, 'WsPathRewrite', {
            code: cloudfront.FunctionCode.fromInline(WS_PATH_REWRITE),
            runtime: cloudfront.FunctionRuntime.JS_2_0,
            comment: 'Routes /ws/company/{companyId} to the WebSocket stage',
          }),
        },
      ],
    };

    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Switchboard',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(this.bucket, {
          originAccessControl: new cloudfront.S3OriginAccessControl(this, 'SiteAccess', {
            originAccessControlName: accountWideName('site'),
          }),
        }),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: spaResponseHeadersPolicy(this, { connect: [`https://${props.picturesDomain}`] }),
        functionAssociations: [
          {
            eventType: cloudfront.FunctionEventType.VIEWER_REQUEST,
            function: new cloudfront.Function(this, 'SpaRewrite', {
              code: cloudfront.FunctionCode.fromInline(SPA_REWRITE),
              runtime: cloudfront.FunctionRuntime.JS_2_0,
              comment: 'Serves index.html for the SPA routes',
            }),
          },
        ],
      },
      additionalBehaviors: {
        '/api/*': apiBehavior,
        '/webhooks/*': apiBehavior,
        '/ws': realtimeBehavior,
        '/ws/*': realtimeBehavior,
      },
      enableLogging: props.accessLogs !== 'off',
      logBucket: props.accessLogs !== 'off' ? this.logsBucket : undefined,
      logFilePrefix: props.accessLogs !== 'off' ? 'cloudfront/' : undefined,
      webAclId: props.webAclArn,
    });
    this.limitLogging(props.accessLogs);
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR1',
      'Geo restriction is an operator choice: the app serves companies wherever they are; add a GeoRestriction here if needed.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR2',
      'AWS WAF is an operator choice (it has a monthly cost): the WafRateLimit parameter adds a web ACL with per-address rate-based rules, WebAclArn attaches an existing one; without either the APIs are throttled per stage and per auth route, and the login per account and address.',
    );
    acknowledge(
      this.distribution,
      'AwsSolutions-CFR4',
      'With the DomainName and CertificateArn parameters the distribution requires TLSv1.2_2021 or newer (constructs/custom-domain.ts); without them it has only the default *.cloudfront.net certificate, with which CloudFront does not allow choosing the minimum viewer TLS version.',
    );

    if (fs.existsSync(props.webDistPath)) {
      this.deploySite(props.webDistPath);
    } else {
      Annotations.of(this).addWarningV2(
        'switchboard:web-not-built',
        `${props.webDistPath} does not exist, so the web app is not uploaded: run \`npm run build:web\` before \`npx cdk deploy\`.`,
      );
    }
  }

  /**
   * CloudFront does not deliver standard logs to buckets in opt-in regions. With the region known at
   * synth time logging is simply off there; in a region-agnostic template a condition turns it off.
   */
  private limitLogging(accessLogs: WebHostingProps['accessLogs']): void {
    if (accessLogs === 'off') {
      acknowledge(
        this.distribution,
        'AwsSolutions-CFR3',
        'CloudFront cannot deliver standard logs to an S3 bucket in this opt-in region; API Gateway access logs still record every API request.',
      );
      return;
    }
    if (accessLogs === 'on') return;
    const distribution = this.distribution.node.defaultChild as cloudfront.CfnDistribution;
    const logging = { Bucket: this.logsBucket.bucketRegionalDomainName, Prefix: 'cloudfront/', IncludeCookies: false };
    distribution.addPropertyOverride('DistributionConfig.Logging', Fn.conditionIf(accessLogs.logicalId, logging, Aws.NO_VALUE));
  }

  /**
   * Uploads the SPA in two steps (docs/deploy.md: Releases and open tabs). First the hashed files,
   * kept a year by browsers and never deleted (`prune: false`): a tab opened before a release still
   * finds every chunk of its own release when it opens a page it has not loaded yet. Then `index.html`
   * and the other unhashed files, asked again on every visit (`no-cache`), pruned of what the release
   * dropped; the distribution is invalidated after it, so a deploy is visible at once. The hashed
   * files go first, so no `index.html` ever names a chunk that is not there yet.
   */
  private deploySite(webDistPath: string): void {
    const logGroup = new logs.LogGroup(this, 'DeploymentLogs', { retention: logs.RetentionDays.ONE_MONTH });
    // An own role instead of AWSLambdaBasicExecutionRole: logs may go to this log group only.
    const role = new iam.Role(this, 'DeploymentRole', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: 'Uploads the Switchboard web app to its bucket',
    });
    logGroup.grantWrite(role);
    const site = new s3assets.Asset(this, 'Site', { path: webDistPath });
    const upload = {
      sources: [s3deploy.Source.bucket(site.bucket, site.s3ObjectKey)],
      destinationBucket: this.bucket,
      memoryLimit: 512,
      role,
      logGroup,
    };
    const hashedFiles = `${HASHED_ASSETS_DIR}/*`;
    // The sync's filters apply in order, the later winning: everything out, then the hashed folder in.
    const assets = new s3deploy.BucketDeployment(this, 'Deployment', {
      ...upload,
      exclude: ['*'],
      include: [hashedFiles],
      prune: false,
      cacheControl: [s3deploy.CacheControl.fromString(HASHED_ASSET_CACHE_CONTROL)],
    });
    // Excluded files are neither uploaded nor pruned here: this step never deletes a hashed file.
    const pages = new s3deploy.BucketDeployment(this, 'PageDeployment', {
      ...upload,
      exclude: [hashedFiles],
      prune: true,
      cacheControl: [s3deploy.CacheControl.fromString(PAGE_CACHE_CONTROL)],
      distribution: this.distribution,
      distributionPaths: ['/*'],
    });
    pages.node.addDependency(assets);

    const reason =
      'Granted by the CDK BucketDeployment: it reads the uploaded build from the CDK assets bucket and syncs (puts, lists, and for the unhashed files prunes) every object of the site bucket, whose keys change with each build.';
    for (const action of ['s3:GetBucket*', 's3:GetObject*', 's3:List*', 's3:DeleteObject*', 's3:Abort*']) {
      acknowledge(role, `AwsSolutions-IAM5[Action::${action}]`, reason);
    }
    acknowledgeWildcardResource(role, site.bucket.arnForObjects('*'), reason);
    acknowledgeWildcardResource(role, this.bucket.arnForObjects('*'), reason);
    acknowledge(
      role,
      'AwsSolutions-IAM5[Resource::*]',
      'cloudfront:CreateInvalidation and GetInvalidation, as the CDK BucketDeployment grants them: they can only expire cached copies after an upload, not change content or configuration.',
    );
    // The upload function is a CDK singleton at stack level whose runtime CDK chooses.
    const uploader = Stack.of(this).node.children.find((child) => child.node.id.startsWith('Custom::CDKBucketDeployment'));
    if (uploader) {
      acknowledge(
        uploader,
        'AwsSolutions-L1',
        'The CDK BucketDeployment function runs only at deploy time, on the Python runtime pinned by aws-cdk-lib together with its AWS CLI layer.',
      );
    }
  }
}
