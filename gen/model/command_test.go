package model

import (
	"slices"
	"testing"
)

func TestEnvName(t *testing.T) {
	for in, want := range map[string]string{
		"bearerAuth":   "BEARER_AUTH",
		"api_key":      "API_KEY",
		"api-key":      "API_KEY",
		"HTTPClient":   "HTTP_CLIENT",
		"petstore":     "PETSTORE",
		"mock_tool2":   "MOCK_TOOL2",
		"名前 key":       "KEY",
		"$$":           "",
		"OAuth2 token": "O_AUTH2_TOKEN",
	} {
		if got := EnvName(in); got != want {
			t.Errorf("EnvName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestNewCommand(t *testing.T) {
	p := &Package{Name: "server", API: &API{Security: []*SecurityScheme{
		{Name: "api_key"}, {Name: "api-key"}, {Name: "$$"}, {Name: "upstream key"},
	}}}
	c := NewCommand(p, "2fa-tool", "example.com/m/server")
	if c.Import != "serverpkg" {
		t.Errorf("Import %q, want serverpkg (server is a local of main)", c.Import)
	}
	if c.UpstreamKeyEnv != "TOOL_2FA_TOOL_UPSTREAM_KEY" {
		t.Errorf("UpstreamKeyEnv %q: a variable's name must start with a letter", c.UpstreamKeyEnv)
	}
	want := []string{"TOOL_2FA_TOOL_API_KEY", "TOOL_2FA_TOOL_API_KEY2", "TOOL_2FA_TOOL_CREDENTIAL", "TOOL_2FA_TOOL_UPSTREAM_KEY2"}
	if !slices.Equal(c.Env, want) {
		t.Errorf("Env %q, want %q", c.Env, want)
	}
	if c := NewCommand(&Package{Name: "petstore"}, "petstore", "p"); c.Import != "petstore" || c.Env != nil {
		t.Errorf("petstore: Import %q, Env %q", c.Import, c.Env)
	}
}
