package emit

import (
	"slices"
	"testing"
)

func TestKeepCases(t *testing.T) {
	type c struct {
		status     string
		unexpected bool
	}
	for _, tc := range []struct {
		name              string
		cases             []c
		defaultUnexpected bool
		want              []string
	}{
		{"as default", []c{{"204", false}, {"404", true}, {"2XX", false}}, true, []string{"204", "2XX"}},
		{"default decodes an error", []c{{"404", true}, {"2XX", false}}, false, []string{"404", "2XX"}},
		{"before a class that does else", []c{{"404", true}, {"4XX", false}, {"2XX", false}}, true, []string{"404", "4XX", "2XX"}},
		{"before a class as default", []c{{"404", true}, {"4XX", true}, {"2XX", false}}, true, []string{"2XX"}},
		{"class before a code", []c{{"5XX", true}, {"503", false}, {"2XX", false}}, true, []string{"5XX", "503", "2XX"}},
		{"other class", []c{{"404", true}, {"5XX", false}, {"2XX", false}}, true, []string{"5XX", "2XX"}},
		{"lower-case class", []c{{"404", true}, {"4xx", false}}, true, []string{"404", "4xx"}},
		{"never matches", []c{{"abc", true}, {"4XX", false}}, true, []string{"4XX"}},
	} {
		var in []statusCase
		for _, x := range tc.cases {
			in = append(in, statusCase{status: x.status, unexpected: x.unexpected})
		}
		var got []string
		for _, x := range keepCases(in, tc.defaultUnexpected) {
			got = append(got, x.status)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: kept %q, want %q", tc.name, got, tc.want)
		}
	}
}
