package emit

import "testing"

func TestDocLead(t *testing.T) {
	for _, tc := range []struct{ name, first, verb, want string }{
		{"GetWeather", "Get the current weather", "returns", "GetWeather gets the current weather"},
		{"Search", "Searches the index", "returns", "Search searches the index"},
		{"Stats", "Counts of pets by status.", "returns", "Counts of pets by status."},
		{"Cos", "The cosine of x", "returns", "Cos returns the cosine of x"},
		{"Unit", "The temperature unit", "is", "Unit is the temperature unit"},
		{"Node", "A recursive node", "is", "Node is a recursive node"},
		{"Read", "Read reads a text", "returns", "Read reads a text"},
		{"ShowPetByID", "Info for a specific pet", "returns", "Info for a specific pet"},
		{"X", "Get", "returns", "Get"},
	} {
		if got := docLead(tc.name, tc.first, tc.verb); got != tc.want {
			t.Errorf("docLead(%q, %q) = %q, want %q", tc.name, tc.first, got, tc.want)
		}
	}
}
