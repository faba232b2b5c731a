package genkittool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/opentoolgen/opentoolgen/adapters/genkittool"
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

func input(location, format string) map[string]any {
	return map[string]any{"currentWeatherInfo": map[string]any{"location": location, "format": format}}
}

// scripted defines a model (standing in for an LLM) that first asks for
// calls, then answers "done", keeping the declarations it was sent and the
// tool responses it read.
type scripted struct {
	calls     []*ai.ToolRequest
	declared  []*ai.ToolDefinition
	responses []*ai.ToolResponse
}

func (s *scripted) define(g *genkit.Genkit) ai.Model {
	return genkit.DefineModel(g, "test/scripted", &ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true}},
		func(_ context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			last := req.Messages[len(req.Messages)-1]
			if last.Role != ai.RoleTool {
				s.declared = req.Tools
				msg := &ai.Message{Role: ai.RoleModel}
				for _, c := range s.calls {
					msg.Content = append(msg.Content, ai.NewToolRequestPart(c))
				}
				return &ai.ModelResponse{Request: req, Message: msg, FinishReason: ai.FinishReasonStop}, nil
			}
			for _, p := range last.Content {
				if p.IsToolResponse() {
					s.responses = append(s.responses, p.ToolResponse)
				}
			}
			return &ai.ModelResponse{Request: req, Message: ai.NewModelTextMessage("done"), FinishReason: ai.FinishReasonStop}, nil
		})
}

// TestGenerate runs a generated tool in Genkit's generate loop: the model
// asks for two tool calls, Genkit runs them and sends the result and the
// tool's error back in the next request.
func TestGenerate(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := genkittool.Tools(ctx, wt) // the one line
	if err != nil {
		t.Fatal(err)
	}
	g := genkit.Init(ctx)
	s := &scripted{calls: []*ai.ToolRequest{
		{Name: "get_current_weather", Ref: "r1", Input: input("Paris", "celsius")},
		{Name: "get_current_weather", Ref: "r2", Input: input("Atlantis", "celsius")},
	}}
	resp, err := genkit.Generate(ctx, g, ai.WithModel(s.define(g)), ai.WithTools(asRefs(tools)...), ai.WithPrompt("weather?"))
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text() != "done" {
		t.Errorf("answer = %q", resp.Text())
	}
	// The declarations come in no fixed order either (Genkit keeps a
	// request's tools by name).
	var weather *ai.ToolDefinition
	for _, d := range s.declared {
		if d.Name == "get_current_weather" {
			weather = d
		}
	}
	if len(s.declared) != 2 || weather == nil || weather.Description != "Get the current weather" {
		names := []string{}
		for _, d := range s.declared {
			names = append(names, d.Name)
		}
		t.Fatalf("declared = %q", names)
	}
	if b, _ := json.Marshal(weather.InputSchema); !strings.Contains(string(b), `"enum":["celsius","fahrenheit"]`) {
		t.Errorf("input schema = %s", b)
	}
	// Genkit runs a turn's tool calls concurrently: the responses are
	// matched to the calls by ref, whatever their order.
	want := map[string]string{
		"r1": `{"currentWeather":"22 celsius in Paris"}`,
		"r2": `{"error":{"code":500,"message":"no weather under the sea"}}`,
	}
	if len(s.responses) != len(want) {
		t.Fatalf("tool responses = %+v", s.responses)
	}
	got := map[string]string{}
	for _, r := range s.responses {
		b, _ := json.Marshal(r.Output)
		got[r.Ref] = string(b)
	}
	for ref, w := range want {
		if got[ref] != w {
			t.Errorf("response to %s = %s, want %s", ref, got[ref], w)
		}
	}
}

// TestGenerateInvalidArguments: Genkit checks a call's input against the
// declared schema before the tool runs and ends the generation with an
// error naming the argument, as for any Genkit tool.
func TestGenerateInvalidArguments(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := genkittool.Tools(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	g := genkit.Init(ctx)
	s := &scripted{calls: []*ai.ToolRequest{{Name: "get_current_weather", Ref: "r1", Input: input("Paris", "kelvin")}}}
	_, err = genkit.Generate(ctx, g, ai.WithModel(s.define(g)), ai.WithTools(asRefs(tools)...), ai.WithPrompt("weather?"))
	if err == nil || !strings.Contains(err.Error(), "currentWeatherInfo.format") {
		t.Errorf("Generate: %v, want an error naming currentWeatherInfo.format", err)
	}
}

func asRefs(tools []ai.Tool) []ai.ToolRef {
	out := make([]ai.ToolRef, len(tools))
	for i, t := range tools {
		out[i] = t
	}
	return out
}
