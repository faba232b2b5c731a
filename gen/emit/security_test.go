package emit

import (
	"reflect"
	"testing"
)

func TestSecurityCalls(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   [][]string
		want [][]string
	}{
		{"none", nil, nil},
		{"one", [][]string{{"a"}}, [][]string{{"a"}}},
		{"optional after", [][]string{{"a"}, {}}, [][]string{{"a"}}},
		{"optional only", [][]string{{}}, nil},
		{"optional first hides the rest", [][]string{{}, {"a"}}, nil},
		{"alternatives", [][]string{{"a", "b"}, {"c"}}, [][]string{{"a", "b"}, {"c"}}},
		{"duplicate", [][]string{{"a"}, {"c"}, {"a"}}, [][]string{{"a"}, {"c"}}},
		{"same names, another set", [][]string{{"a", "b"}, {"a"}, {"b"}}, [][]string{{"a", "b"}, {"a"}, {"b"}}},
	} {
		if got := securityCalls(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: securityCalls(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}
