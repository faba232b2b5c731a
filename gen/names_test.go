package gen

import (
	"strings"
	"testing"
)

// TestCollidingNamesStayApart generates a document whose names collide after
// conversion and checks every one got its own Go name.
func TestCollidingNamesStayApart(t *testing.T) {
	doc := `{"opentool": "1.0.0", "info": {"title": "t", "version": "1"},
	"functions": [
	  {"name": "user_id", "description": "d", "parameters": [
	    {"name": "user_id", "schema": {"type": "string"}, "required": true},
	    {"name": "userId", "schema": {"type": "string"}, "required": true},
	    {"name": "user-id", "schema": {"type": "string"}, "required": true},
	    {"name": "UserID", "schema": {"type": "string"}, "required": true}]},
	  {"name": "userId", "description": "d", "parameters": []},
	  {"name": "UserId", "description": "d", "parameters": []}]}`
	res, err := Generate("collide.json", []byte(doc), Options{Package: "collide"})
	if err != nil {
		t.Fatal(err)
	}
	var types string
	for _, f := range res.Files {
		if f.Name == "types.gen.go" {
			types = string(f.Content)
		}
	}
	for _, want := range []string{"UserID string `json:\"user_id\"`", "UserID2 string `json:\"userId\"`", "UserID3 string `json:\"user-id\"`", "UserID4 string `json:\"UserID\"`"} {
		if !strings.Contains(strings.Join(strings.Fields(types), " "), want) {
			t.Errorf("types.gen.go lacks the field %s:\n%s", want, types)
		}
	}
}
