package openapi

import (
	"strings"
	"testing"
)

func TestWireName(t *testing.T) {
	for _, tc := range []struct{ opID, method, path, want string }{
		{"listPets", "GET", "/pets", "listPets"},
		{"pets.list", "GET", "/pets", "pets_list"},
		{"get pet by id!", "GET", "/pets/{id}", "get_pet_by_id"},
		{"", "GET", "/pets/{petId}/photos", "get_pets_petId_photos"},
		{"", "DELETE", "/", "delete"},
		{"été", "POST", "/x", "post_x"},
		{strings.Repeat("a", 80), "GET", "/", strings.Repeat("a", 60)},
	} {
		if got := wireName(tc.opID, tc.method, tc.path); got != tc.want {
			t.Errorf("wireName(%q, %q, %q) = %q, want %q", tc.opID, tc.method, tc.path, got, tc.want)
		}
	}
}
