package io.cubed.storage.fs.s3;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import javax.xml.stream.XMLStreamException;
import org.junit.jupiter.api.Test;

class S3XmlTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void readsAListingPageWithItsContinuationToken() throws Exception {
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>b</Name>"
                + "<Prefix>x</Prefix><KeyCount>2</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>true</IsTruncated>"
                + "<Contents><Key>x/.zarray</Key><LastModified>2024-01-01T00:00:00.000Z</LastModified>"
                + "<ETag>\"e\"</ETag><Size>312</Size><StorageClass>STANDARD</StorageClass></Contents>"
                + "<Contents><Key>x/0.0</Key><Size>524288</Size></Contents>"
                + "<NextContinuationToken>tok/en==</NextContinuationToken></ListBucketResult>";
        S3Xml.ListPage page = S3Xml.listPage(utf8(xml));
        assertThat(page.keys()).containsExactly("x/.zarray", "x/0.0");
        assertThat(page.sizes()).containsExactly(312L, 524288L);
        assertThat(page.nextToken()).isEqualTo("tok/en==");
    }

    @Test
    void readsTheCommonPrefixesOfADelimiterListing() throws Exception {
        String xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>"
                + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><Name>b</Name>"
                + "<Prefix>g.zarr/</Prefix><Delimiter>/</Delimiter><IsTruncated>false</IsTruncated>"
                + "<Contents><Key>g.zarr/.zgroup</Key><Size>24</Size></Contents>"
                + "<CommonPrefixes><Prefix>g.zarr/lat/</Prefix></CommonPrefixes>"
                + "<CommonPrefixes><Prefix>g.zarr/t2m/</Prefix></CommonPrefixes></ListBucketResult>";
        S3Xml.ListPage page = S3Xml.listPage(utf8(xml));
        assertThat(page.keys()).containsExactly("g.zarr/.zgroup");
        assertThat(page.prefixes()).containsExactly("g.zarr/lat/", "g.zarr/t2m/");
        assertThat(page.nextToken()).isNull();
    }

    @Test
    void theLastPageHasNoTokenAndATruncatedPageWithoutOneIsRefused() throws Exception {
        assertThat(S3Xml.listPage(utf8("<ListBucketResult><IsTruncated>false</IsTruncated></ListBucketResult>"))
                        .nextToken())
                .isNull();
        assertThatThrownBy(() -> S3Xml.listPage(
                        utf8("<ListBucketResult><IsTruncated>true</IsTruncated>" + "</ListBucketResult>")))
                .isInstanceOf(XMLStreamException.class)
                .hasMessageContaining("continuation token");
    }

    @Test
    void readsAnErrorsCodeMessageAndRegion() {
        S3Xml.Error e = S3Xml.error(utf8("<?xml version=\"1.0\"?><Error><Code>AuthorizationHeaderMalformed</Code>"
                + "<Message>the region 'us-east-1' is wrong; expecting 'eu-west-1'</Message>"
                + "<Region>eu-west-1</Region><RequestId>R</RequestId></Error>"));
        assertThat(e.code()).isEqualTo("AuthorizationHeaderMalformed");
        assertThat(e.message()).contains("expecting 'eu-west-1'");
        assertThat(e.region()).isEqualTo("eu-west-1");
        assertThat(S3Xml.error(utf8("<html>Bad Gateway</html>")).code()).isNull();
        assertThat(S3Xml.error(new byte[0]).code()).isNull();
    }

    @Test
    void aBulkDeleteNamesEveryKeyEscapedAndItsAnswerTheFailures() throws Exception {
        String body = new String(S3Xml.deleteRequest(List.of("a/0.0", "b&<c>")), StandardCharsets.UTF_8);
        assertThat(body)
                .contains("<Quiet>true</Quiet>")
                .contains("<Object><Key>a/0.0</Key></Object>")
                .contains("<Key>b&amp;&lt;c&gt;</Key>");
        List<String> failed = S3Xml.deleteFailures(utf8("<DeleteResult><Deleted><Key>a/0.0</Key></Deleted>"
                + "<Error><Key>b</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"
                + "</DeleteResult>"));
        assertThat(failed).containsExactly("b (AccessDenied: Access Denied)");
        assertThatThrownBy(() -> S3Xml.escape("a\u0001b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("control character 1");
    }
}
