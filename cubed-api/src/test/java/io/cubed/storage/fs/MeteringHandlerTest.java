package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MeteringHandlerTest {
    /** A DeleteObjects body as the S3 API reference shows it, with keys that XML escapes. */
    @Test
    void theKeysOfABulkDeleteAreTheTextsOfItsKeyElements() {
        String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                + "<Delete xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">\n"
                + "  <Object><Key>a/0.0</Key></Object>\n"
                + "  <Object><Key>b &amp; c/&lt;1&gt;</Key><VersionId>v1</VersionId></Object>\n"
                + "  <Object><Key>&quot;q&apos;&#233;&#x4E2D;</Key></Object>\n"
                + "  <Quiet>true</Quiet>\n"
                + "</Delete>";

        assertThat(MeteringHandler.deletedKeys(body)).containsExactly("a/0.0", "b & c/<1>", "\"q'é中");
    }
}
