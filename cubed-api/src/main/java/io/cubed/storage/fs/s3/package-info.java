/**
 * Cubed's S3 client, which {@code s3a://} URIs open: {@link io.cubed.storage.fs.s3.S3Store} (the {@code Store}: one GET
 * per read, one PUT per write), {@code S3Client} (the operations), {@code Http1} (HTTP/1.1 on kept-alive sockets),
 * {@code SigV4} (request signing), {@code S3Settings} (S3A's options), {@code CredentialSource} with {@code
 * InstanceCredentials} (S3A's credential order), and {@code S3Xml} (errors, listings, bulk deletes).
 */
package io.cubed.storage.fs.s3;
