package openapie2e

import (
	"context"
	"net/http"
	"testing"

	aws "github.com/opentoolgen/opentoolgen/testdata/golden/openapi-aws"
)

// TestAWSShape calls an API in the shape of AWS's documents converted to
// OpenAPI (EC2's): the path's fragment ("/#Action=DescribeTags") is not
// sent, the action and the other parameters reach the API in the query, an
// XML body and answer travel as text, and a request editor signs each
// request (the document's Signature Version 4 is not generated: a warning).
func TestAWSShape(t *testing.T) {
	ctx := context.Background()
	f, srv := newFake(t)
	c := must(aws.NewClient(srv.URL, aws.WithRequestEditor(func(_ context.Context, r *http.Request) error {
		r.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=test") // what a signer would set
		return nil
	})))
	const result = `<DescribeTagsResponse><tagSet/></DescribeTagsResponse>`
	f.expect(exchange{method: "GET", path: "/", query: "MaxResults=5&Action=DescribeTags&Version=2016-11-15",
		header: map[string]string{"X-Amz-Date": "20261126T000000Z", "Authorization": "AWS4-HMAC-SHA256 Credential=test"},
		status: 200, response: result, responseType: "text/xml"})
	got, err := c.GETDescribeTags(ctx, aws.GETDescribeTagsArgs{MaxResults: ptr[int64](5), XAmzDate: ptr("20261126T000000Z"),
		Action: aws.ActionDescribeTags, Version: aws.Version20161115})
	if err != nil || got != result {
		t.Errorf("GET: %q, %v", got, err)
	}
	const body = `<DescribeTagsRequest><MaxResults>5</MaxResults></DescribeTagsRequest>`
	f.expect(exchange{method: "POST", path: "/", query: "Action=DescribeTags&Version=2016-11-15", body: body, contentType: "text/xml",
		status: 200, response: result, responseType: "text/xml"})
	got, err = c.POSTDescribeTags(ctx, aws.POSTDescribeTagsArgs{Body: ptr(body),
		Action: aws.ActionDescribeTags, Version: aws.Version20161115})
	if err != nil || got != result {
		t.Errorf("POST: %q, %v", got, err)
	}
}
