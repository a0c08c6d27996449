package io.cubed.storage.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SigV4Test {
    /**
     * AWS's published example of a signed S3 GET (the "GET Object" example of Signature Version 4 with the
     * Authorization header): bucket examplebucket, key test.txt, the first 10 bytes, 2013-05-24 00:00:00 UTC.
     */
    @Test
    void signsAwsPublishedGetObjectExample() {
        Credentials c = new Credentials("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", null);
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Host", "examplebucket.s3.amazonaws.com");
        headers.put("Range", "bytes=0-9");
        headers.put("x-amz-content-sha256", SigV4.EMPTY_SHA256);
        headers.put("x-amz-date", "20130524T000000Z");
        String auth = new SigV4("s3")
                .authorization(
                        c, "us-east-1", "20130524T000000Z", "GET", "/test.txt", Map.of(), headers, SigV4.EMPTY_SHA256);
        assertThat(auth)
                .isEqualTo("AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
                        + "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
                        + "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
    }

    @Test
    void theSigningKeyOfAnotherDayOrRegionIsDerivedAgain() {
        Credentials c = new Credentials("AK", "SECRET", null);
        SigV4 signer = new SigV4("s3");
        Map<String, String> h = Map.of("host", "h", "x-amz-date", "20240101T000000Z");
        String a = signer.authorization(c, "us-east-1", "20240101T000000Z", "GET", "/k", Map.of(), h, "X");
        String b = signer.authorization(c, "eu-west-1", "20240101T000000Z", "GET", "/k", Map.of(), h, "X");
        String again = signer.authorization(c, "us-east-1", "20240101T000000Z", "GET", "/k", Map.of(), h, "X");
        assertThat(a).isNotEqualTo(b).isEqualTo(again);
        assertThat(b).contains("/20240101/eu-west-1/s3/aws4_request");
    }

    @Test
    void encodesKeysAsS3SignsThem() {
        assertThat(SigV4.encodePath("a b/c+d/é~_.-")).isEqualTo("a%20b/c%2Bd/%C3%A9~_.-");
        assertThat(SigV4.encode("a/b=c&d", true)).isEqualTo("a%2Fb%3Dc%26d");
    }

    @Test
    void canonicalQuerySortsAndEncodesNamesAndValues() {
        Map<String, String> q = new LinkedHashMap<>();
        q.put("prefix", "x/y z");
        q.put("list-type", "2");
        q.put("delete", "");
        assertThat(SigV4.canonicalQuery(q)).isEqualTo("delete=&list-type=2&prefix=x%2Fy%20z");
        assertThat(SigV4.canonicalQuery(Map.of())).isEmpty();
    }

    @Test
    void hashesAndDatesAreWhatAwsExpects() {
        assertThat(SigV4.hex(SigV4.sha256(new byte[0]))).isEqualTo(SigV4.EMPTY_SHA256);
        assertThat(SigV4.hex(SigV4.sha256("Welcome to Amazon S3.".getBytes(StandardCharsets.UTF_8))))
                .isEqualTo("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
        assertThat(SigV4.amzDate(ZonedDateTime.of(2013, 5, 24, 2, 3, 4, 0, ZoneOffset.ofHours(2))))
                .isEqualTo("20130524T000304Z");
    }
}
