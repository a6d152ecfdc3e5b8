import { Aws, CfnCondition, CfnParameter, CfnRule, Fn, Stack } from 'aws-cdk-lib';
import type * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import { Construct } from 'constructs';

/** The oldest TLS version viewers may use on the custom domain. */
export const VIEWER_MINIMUM_PROTOCOL = 'TLSv1.2_2021';

/**
 * The optional DomainName and CertificateArn parameters: with them the distribution answers on the
 * domain with the ACM certificate (CloudFront takes certificates from us-east-1 only) and TLS 1.2 or
 * newer, and the app's public URL (mail links, the Twilio webhook base) is `https://<domain>`.
 * Without them the app lives on the distribution's own *.cloudfront.net name.
 */
export class CustomDomain extends Construct {
  readonly domainName: string;
  readonly certificateArn: string;
  readonly condition: CfnCondition;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const stack = Stack.of(this);
    const domainName = new CfnParameter(stack, 'DomainName', {
      type: 'String',
      default: '',
      allowedPattern: '^(([a-z0-9]([a-z0-9-]*[a-z0-9])?\\.)+[a-z0-9-]{2,63})?$',
      constraintDescription: 'must be a lower-case host name such as app.example.com, or empty',
      description:
        'Host name the app answers on (e.g. app.example.com), with CertificateArn; point it (CNAME or alias) at the DistributionDomainName output. Empty: the CloudFront domain.',
    });
    const certificateArn = new CfnParameter(stack, 'CertificateArn', {
      type: 'String',
      default: '',
      allowedPattern: '^(arn:aws[a-z-]*:acm:us-east-1:[0-9]{12}:certificate/[A-Za-z0-9-]+)?$',
      constraintDescription: 'must be the ARN of an ACM certificate in us-east-1 (CloudFront uses no other region), or empty',
      description: 'ARN of the ACM certificate (in us-east-1) for DomainName; empty without DomainName.',
    });
    this.domainName = domainName.valueAsString;
    this.certificateArn = certificateArn.valueAsString;
    const noDomain = Fn.conditionEquals(this.domainName, '');
    const noCertificate = Fn.conditionEquals(this.certificateArn, '');
    this.condition = new CfnCondition(stack, 'HasCustomDomain', { expression: Fn.conditionNot(noDomain) });
    new CfnRule(stack, 'CustomDomainWithCertificate', {
      assertions: [
        {
          assert: Fn.conditionOr(
            Fn.conditionAnd(noDomain, noCertificate),
            Fn.conditionAnd(Fn.conditionNot(noDomain), Fn.conditionNot(noCertificate)),
          ),
          assertDescription: 'DomainName and CertificateArn go together: give both (the certificate in us-east-1) or neither.',
        },
      ],
    });
  }

  /** The domain as the distribution's alias, with the certificate and at least TLS 1.2; nothing without it. */
  applyTo(distribution: cloudfront.Distribution): void {
    const cfn = distribution.node.defaultChild as cloudfront.CfnDistribution;
    cfn.addPropertyOverride(
      'DistributionConfig.Aliases',
      Fn.conditionIf(this.condition.logicalId, [this.domainName], Aws.NO_VALUE),
    );
    cfn.addPropertyOverride(
      'DistributionConfig.ViewerCertificate',
      Fn.conditionIf(
        this.condition.logicalId,
        { AcmCertificateArn: this.certificateArn, SslSupportMethod: 'sni-only', MinimumProtocolVersion: VIEWER_MINIMUM_PROTOCOL },
        Aws.NO_VALUE,
      ),
    );
  }

  /** `https://<DomainName>`, or `https://<the distribution's domain>` without one. */
  appUrl(distribution: cloudfront.Distribution): string {
    return Fn.conditionIf(
      this.condition.logicalId,
      `https://${this.domainName}`,
      `https://${distribution.distributionDomainName}`,
    ).toString();
  }
}
