import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { SENT_PREFIX, UNSENT_PREFIX } from '../../functions/lib/picture-bucket-keys';
import { acknowledge } from './nag';

/** An upload never sent is removed after this long (docs/product.md: Pictures out). */
export const UNSENT_PICTURE_DAYS = 1;

/**
 * The private bucket of pictures sent in texts (docs/security.md: Pictures): no public access of any
 * kind, TLS only, S3-managed encryption, objects owned by the bucket (no ACLs). Browsers upload and
 * read by URLs the functions sign, from any page (CORS, `allowBrowsers`: the URL is the credential); Twilio
 * reads by such URLs too. Uploads wait under `unsent/` and are removed a day later unless a text took
 * them (a copy under `sent/`, kept until the company is deleted). Kept when the stack is deleted, as
 * the table is (it holds customers' data), but not after a rolled-back first create.
 */
export class PictureBucket extends Construct {
  readonly bucket: s3.Bucket;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.bucket = new s3.Bucket(this, 'Bucket', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_ENFORCED,
      removalPolicy: RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE,
      lifecycleRules: [
        {
          id: 'UnsentUploads',
          prefix: `${UNSENT_PREFIX}/`,
          expiration: Duration.days(UNSENT_PICTURE_DAYS),
          abortIncompleteMultipartUploadAfter: Duration.days(1),
        },
        // Presigned PUTs are single requests; nothing is ever uploaded in parts under `sent/` either.
        { id: 'IncompleteUploads', prefix: `${SENT_PREFIX}/`, abortIncompleteMultipartUploadAfter: Duration.days(1) },
      ],
    });
    acknowledge(
      this.bucket,
      'AwsSolutions-S1',
      'Every read and write of a picture is by a URL a function signs for one object, for minutes, after checking the caller and their company; the functions log each send. Server access logs would record the same requests again.',
    );
  }

  /**
   * Browsers may PUT uploads and GET sent pictures (the thread follows a 302 here) by the URLs the
   * functions sign. Any origin: a signed URL is the credential, whatever page uses it, and naming the
   * app's origin here would tie the bucket to the distribution while the distribution's
   * Content-Security-Policy names the bucket (docs/security.md: Pictures) — a cycle CloudFormation refuses.
   */
  allowBrowsers(): void {
    this.bucket.addCorsRule({
      allowedOrigins: ['*'],
      allowedMethods: [s3.HttpMethods.PUT, s3.HttpMethods.GET],
      allowedHeaders: ['content-type'],
      exposedHeaders: ['ETag'],
      maxAge: 3000,
    });
  }
}
