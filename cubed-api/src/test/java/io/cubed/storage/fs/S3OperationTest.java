package io.cubed.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class S3OperationTest {
    /** Requests as S3's API reference writes them, with the parameter names of their query strings. */
    @ParameterizedTest(name = "{0} {1} ?{2} copy={3}: {4}")
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                "GET    | key    | -                                   | false | GET_OBJECT",
                "GET    | key    | partNumber                          | false | GET_OBJECT",
                "GET    | key    | versionId response-content-type     | false | GET_OBJECT",
                "GET    | key    | X-Amz-Algorithm X-Amz-Signature     | false | GET_OBJECT",
                "GET    | key    | acl                                 | false | OTHER",
                "GET    | key    | uploadId                            | false | OTHER",
                "GET    | key    | tagging                             | false | OTHER",
                "HEAD   | key    | -                                   | false | HEAD_OBJECT",
                "HEAD   | key    | partNumber                          | false | HEAD_OBJECT",
                "PUT    | key    | -                                   | false | PUT_OBJECT",
                "PUT    | key    | -                                   | true  | COPY_OBJECT",
                "PUT    | key    | partNumber uploadId                 | false | UPLOAD_PART",
                "PUT    | key    | partNumber uploadId                 | true  | UPLOAD_PART",
                "PUT    | key    | acl                                 | false | OTHER",
                "POST   | key    | uploads                             | false | INITIATE_MULTIPART",
                "POST   | key    | uploadId                            | false | COMPLETE_MULTIPART",
                "POST   | key    | restore                             | false | OTHER",
                "DELETE | key    | -                                   | false | DELETE_OBJECT",
                "DELETE | key    | versionId                           | false | DELETE_OBJECT",
                "DELETE | key    | uploadId                            | false | OTHER",
                "GET    | bucket | -                                   | false | LIST",
                "GET    | bucket | list-type prefix delimiter max-keys | false | LIST",
                "GET    | bucket | list-type continuation-token        | false | LIST",
                "GET    | bucket | marker encoding-type                | false | LIST",
                "GET    | bucket | location                            | false | OTHER",
                "GET    | bucket | uploads                             | false | OTHER",
                "GET    | bucket | versions prefix                     | false | OTHER",
                "POST   | bucket | delete                              | false | DELETE_OBJECTS",
                "POST   | bucket | -                                   | false | OTHER",
                "HEAD   | bucket | -                                   | false | OTHER",
                "PUT    | bucket | -                                   | false | OTHER",
                "DELETE | bucket | -                                   | false | OTHER",
                "OPTIONS| key    | -                                   | false | OTHER",
            })
    void eachRequestIsOneOperation(
            String method, String level, String parameters, boolean copySource, S3Operation expected) {
        Set<String> names = parameters == null ? Set.of() : Set.of(parameters.split(" "));
        assertThat(S3Operation.classify(method, level.equals("key"), names, copySource))
                .isEqualTo(expected);
    }
}
