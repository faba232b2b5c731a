package adktool_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"google.golang.org/genai"

	"github.com/opentoolgen/opentoolgen/adapters/adktool"
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

// adkTool is the method set of ADK's tool.Tool as written in adk-go's
// tool/tool.go (google.golang.org/adk/v2, commit 0a51e153).
type adkTool interface {
	Name() string
	Description() string
	IsLongRunning() bool
}

// TestMethodSets checks a *Function against ADK's tool.Tool and the
// non-ADK methods of its internal FunctionTool (Declaration returning
// *genai.FunctionDeclaration; Run's result and error types).
func TestMethodSets(t *testing.T) {
	var _ adkTool = (*adktool.Function)(nil)
	ft := reflect.TypeFor[*adktool.Function]()
	decl, _ := ft.MethodByName("Declaration")
	if decl.Type.NumOut() != 1 || decl.Type.Out(0) != reflect.TypeFor[*genai.FunctionDeclaration]() {
		t.Errorf("Declaration is %v", decl.Type)
	}
	run, _ := ft.MethodByName("Run")
	if run.Type.NumIn() != 3 || run.Type.In(2) != reflect.TypeFor[any]() || run.Type.NumOut() != 2 ||
		run.Type.Out(0) != reflect.TypeFor[map[string]any]() || run.Type.Out(1) != reflect.TypeFor[error]() {
		t.Errorf("Run is %v, want func(ctx, any) (map[string]any, error) as ADK's", run.Type)
	}
}

// TestDeclarationAndRun declares the functions as genai takes them (a
// genai.Tool marshals to Gemini's JSON with parametersJsonSchema) and runs
// calls as ADK's flow does, with the model's arguments as a map.
func TestDeclarationAndRun(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	fns, err := adktool.Functions(ctx, wt) // the one line
	if err != nil {
		t.Fatal(err)
	}
	f := fns[0]
	b, err := json.Marshal(&genai.Tool{FunctionDeclarations: []*genai.FunctionDeclaration{f.Declaration()}})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`"name":"get_current_weather"`, `"parametersJsonSchema":{`, `"enum":["celsius","fahrenheit"]`, `"responseJsonSchema":{`} {
		if !strings.Contains(string(b), w) {
			t.Errorf("genai.Tool = %s, want %s", b, w)
		}
	}
	if s := f.InputSchema(); s == nil || s.Properties["currentWeatherInfo"] == nil || len(s.Required) != 1 {
		t.Errorf("InputSchema = %+v", s)
	}
	// a function call as the model sends it (genai.FunctionCall's Args)
	var call genai.FunctionCall
	if err := json.Unmarshal([]byte(`{"name":"get_current_weather","args":{"currentWeatherInfo":{"location":"Paris","format":"celsius"}}}`), &call); err != nil {
		t.Fatal(err)
	}
	result, err := f.Run(ctx, call.Args)
	if err != nil || result["currentWeather"] != "22 celsius in Paris" {
		t.Errorf("Run = %v, %v", result, err)
	}
	if _, err := f.Run(ctx, map[string]any{"currentWeatherInfo": map[string]any{"location": "Atlantis", "format": "celsius"}}); err == nil || !strings.Contains(err.Error(), "no weather under the sea") {
		t.Errorf("Run for Atlantis: %v", err)
	}
	if _, err := f.Run(ctx, map[string]any{"currentWeatherInfo": map[string]any{"location": "Paris", "format": "kelvin"}}); err == nil || !strings.Contains(err.Error(), "/currentWeatherInfo/format") {
		t.Errorf("Run with kelvin: %v", err)
	}
	if result, err := f.Run(ctx, json.RawMessage(`{"currentWeatherInfo":{"location":"Oslo","format":"celsius"}}`)); err != nil || result["currentWeather"] != "22 celsius in Oslo" {
		t.Errorf("Run with raw JSON = %v, %v", result, err)
	}
}
