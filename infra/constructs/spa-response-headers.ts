import { Duration } from 'aws-cdk-lib';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import type { Construct } from 'constructs';
import { contentSecurityPolicy, indexHtmlScriptHashes } from '../../web/content-security-policy';
import { accountWideName } from './account-wide-name';

/**
 * The SPA's security headers: those of CloudFront's managed SecurityHeadersPolicy, plus the app's
 * Content-Security-Policy (web/content-security-policy.ts), so an injected script could neither run
 * nor send a stored token anywhere but the app, Twilio and the pictures bucket (`connect`).
 */
export function spaResponseHeadersPolicy(
  scope: Construct,
  options: { connect: readonly string[] },
): cloudfront.ResponseHeadersPolicy {
  return new cloudfront.ResponseHeadersPolicy(scope, 'SpaResponseHeaders', {
    // CDK's default name (from the construct path) has no region: a second region failed to deploy.
    responseHeadersPolicyName: accountWideName('spa-headers'),
    comment: 'Switchboard SPA: security headers and Content-Security-Policy',
    securityHeadersBehavior: {
      contentSecurityPolicy: {
        contentSecurityPolicy: contentSecurityPolicy({
          scriptHashes: indexHtmlScriptHashes(),
          connect: options.connect,
          header: true,
        }),
        override: true,
      },
      contentTypeOptions: { override: true },
      frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
      referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN, override: true },
      strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      xssProtection: { protection: true, modeBlock: true, override: true },
    },
  });
}
