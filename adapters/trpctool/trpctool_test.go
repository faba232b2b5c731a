package trpctool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/opentoolgen/opentoolgen/adapters/trpctool"
	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
)

// weather is the test's weather service: it fails for Atlantis.
type weather struct{}

func (weather) GetCurrentWeather(_ context.Context, a weathertool.GetCurrentWeatherArgs) (string, error) {
	if a.CurrentWeatherInfo.Location == "Atlantis" {
		return "", errors.New("no weather under the sea")
	}
	return "22 " + string(a.CurrentWeatherInfo.Format) + " in " + a.CurrentWeatherInfo.Location, nil
}

func (weather) GetNDayWeatherForecast(context.Context, weathertool.GetNDayWeatherForecastArgs) (string, error) {
	return "sunny", nil
}

// The types below are written from tRPC-Agent-Go's tool/tool.go (commit
// 0e352fdd1): the Call method of CallableTool, and the fields and JSON tags
// of Declaration and Schema that a declaration fills.
type callable interface {
	Call(ctx context.Context, jsonArgs []byte) (any, error)
}

type declaration struct {
	Name         string  `json:"name"`
	Description  string  `json:"description"`
	InputSchema  *schema `json:"inputSchema"`
	OutputSchema *schema `json:"outputSchema,omitempty"`
}

type schema struct {
	Type                 string             `json:"type,omitempty"`
	Description          string             `json:"description,omitempty"`
	Required             []string           `json:"required,omitempty"`
	Properties           map[string]*schema `json:"properties,omitempty"`
	Items                *schema            `json:"items,omitempty"`
	AdditionalProperties any                `json:"additionalProperties,omitempty"`
	Enum                 []any              `json:"enum,omitempty"`
	Ref                  string             `json:"$ref,omitempty"`
	Defs                 map[string]*schema `json:"$defs,omitempty"`
}

// TestCallable calls the functions as tRPC's function-call processor does:
// Call with the model's raw arguments, the result marshalled for the tool
// message, errors as Go errors.
func TestCallable(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	fns, err := trpctool.Functions(ctx, wt) // the one line
	if err != nil {
		t.Fatal(err)
	}
	var c callable = fns[0]
	result, err := c.Call(ctx, []byte(`{"currentWeatherInfo":{"location":"Paris","format":"celsius"}}`))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := json.Marshal(result); err != nil || string(b) != `{"currentWeather":"22 celsius in Paris"}` {
		t.Errorf("result marshals as %s, %v", b, err)
	}
	if _, err := c.Call(ctx, []byte(`{"currentWeatherInfo":{"location":"Atlantis","format":"celsius"}}`)); err == nil || !strings.Contains(err.Error(), "no weather under the sea") {
		t.Errorf("Call for Atlantis: %v", err)
	}
	if _, err := c.Call(ctx, []byte(`{"currentWeatherInfo":{"location":"Paris"}}`)); err == nil || !strings.Contains(err.Error(), "-32602") {
		t.Errorf("Call without format: %v", err)
	}
}

// TestDeclarationJSON reads DeclarationJSON into the shape of tRPC's
// tool.Declaration, strictly: no member it lacks.
func TestDeclarationJSON(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	fns, err := trpctool.Functions(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(fns[0].DeclarationJSON())))
	dec.DisallowUnknownFields()
	var d declaration
	if err := dec.Decode(&d); err != nil {
		t.Fatal(err)
	}
	in := d.InputSchema
	if d.Name != "get_current_weather" || d.Description != "Get the current weather" || in == nil || in.Type != "object" ||
		len(in.Required) != 1 || in.Properties["currentWeatherInfo"] == nil || len(in.Properties["currentWeatherInfo"].Properties["format"].Enum) != 2 {
		t.Errorf("declaration = %s", fns[0].DeclarationJSON())
	}
	if d.OutputSchema == nil || d.OutputSchema.Properties["currentWeather"] == nil {
		t.Errorf("output schema = %s", fns[0].DeclarationJSON())
	}
}
