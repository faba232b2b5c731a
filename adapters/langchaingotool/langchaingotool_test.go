package langchaingotool_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/llms"
	"github.com/tmc/langchaingo/schema"

	"github.com/opentoolgen/opentoolgen/adapters/langchaingotool"
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

// scripted stands in for the LLM only: its first answer calls tools (the
// arguments wrapped in __arg1 as the OpenAI-functions agent declares every
// tool), its second reads the tool messages the agent sent back.
type scripted struct {
	calls    []llms.ToolCall
	received []llms.ToolCallResponse
	turn     int
}

func (s *scripted) GenerateContent(_ context.Context, msgs []llms.MessageContent, _ ...llms.CallOption) (*llms.ContentResponse, error) {
	s.turn++
	if s.turn == 1 {
		return &llms.ContentResponse{Choices: []*llms.ContentChoice{{ToolCalls: s.calls}}}, nil
	}
	for _, m := range msgs {
		for _, p := range m.Parts {
			if r, ok := p.(llms.ToolCallResponse); ok {
				s.received = append(s.received, r)
			}
		}
	}
	return &llms.ContentResponse{Choices: []*llms.ContentChoice{{Content: "done"}}}, nil
}

func (s *scripted) Call(ctx context.Context, prompt string, options ...llms.CallOption) (string, error) {
	return llms.GenerateFromSinglePrompt(ctx, s, prompt, options...)
}

func arg1(args string) string {
	b, _ := json.Marshal(map[string]string{"__arg1": args})
	return string(b)
}

// TestAgentExecutor runs a generated tool in langchaingo's agent executor
// with the OpenAI-functions agent: the tools' results and errors reach the
// executor's steps and the model's next request as tool messages.
func TestAgentExecutor(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := langchaingotool.Tools(ctx, wt) // the one line
	if err != nil {
		t.Fatal(err)
	}
	if tools[0].Name() != "get_current_weather" || !strings.Contains(tools[0].Description(), `"enum":["celsius","fahrenheit"]`) {
		t.Errorf("tool 0 = %s: %s", tools[0].Name(), tools[0].Description())
	}
	model := &scripted{calls: []llms.ToolCall{
		{ID: "c1", Type: "function", FunctionCall: &llms.FunctionCall{Name: "get_current_weather",
			Arguments: arg1("```json\n" + `{"currentWeatherInfo":{"location":"Paris","format":"celsius"}}` + "\n```")}},
		{ID: "c2", Type: "function", FunctionCall: &llms.FunctionCall{Name: "get_current_weather",
			Arguments: arg1(`{"currentWeatherInfo":{"location":"Atlantis","format":"celsius"}}`)}},
		{ID: "c3", Type: "function", FunctionCall: &llms.FunctionCall{Name: "get_current_weather",
			Arguments: arg1(`{"currentWeatherInfo":{"location":"Paris"}}`)}},
	}}
	exec := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(model, tools), agents.WithReturnIntermediateSteps())
	out, err := exec.Call(ctx, map[string]any{"input": "weather in Paris?"})
	if err != nil {
		t.Fatal(err)
	}
	if out["output"] != "done" {
		t.Errorf("output = %v", out["output"])
	}
	want := []string{
		`{"currentWeather":"22 celsius in Paris"}`,
		`{"error":{"code":500,"message":"no weather under the sea"}}`,
		`"code":-32602`,
	}
	steps, _ := out["intermediateSteps"].([]schema.AgentStep)
	if len(steps) != len(want) || len(model.received) != len(want) {
		t.Fatalf("%d steps and %d tool messages, want %d: %v", len(steps), len(model.received), len(want), model.received)
	}
	for i, w := range want {
		if !strings.Contains(steps[i].Observation, w) {
			t.Errorf("step %d observed %s, want %s", i, steps[i].Observation, w)
		}
		if r := model.received[i]; r.ToolCallID != model.calls[i].ID || r.Content != steps[i].Observation {
			t.Errorf("tool message %d = %+v, want call %s's observation", i, r, model.calls[i].ID)
		}
	}
	if !strings.Contains(steps[2].Observation, "/currentWeatherInfo/format") {
		t.Errorf("the violation does not name the argument: %s", steps[2].Observation)
	}
}

// TestExecute declares the functions for GenerateContent and answers a
// model's tool calls with one tool message.
func TestExecute(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	defs, err := langchaingotool.Definitions(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(defs)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `{"type":"function","function":{"name":"get_current_weather","description":"Get the current weather","parameters":{`) {
		t.Errorf("definitions = %s", b)
	}
	fns, err := langchaingotool.Functions(ctx, wt)
	if err != nil {
		t.Fatal(err)
	}
	msg, err := langchaingotool.Execute(ctx, fns, []llms.ToolCall{
		{ID: "a", Type: "function", FunctionCall: &llms.FunctionCall{Name: "get_n_day_weather_forecast", Arguments: `{"forecastWeatherInfo":{"location":"Oslo","format":"celsius","num_days":2}}`}},
		{ID: "b", Type: "function", FunctionCall: &llms.FunctionCall{Name: "no_such_tool", Arguments: `{}`}},
	})
	if err != nil {
		t.Fatal(err)
	}
	if msg.Role != llms.ChatMessageTypeTool || len(msg.Parts) != 2 {
		t.Fatalf("message = %+v", msg)
	}
	r0, r1 := msg.Parts[0].(llms.ToolCallResponse), msg.Parts[1].(llms.ToolCallResponse)
	if r0.ToolCallID != "a" || r0.Content != `{"forecastWeather":"sunny"}` {
		t.Errorf("response a = %+v", r0)
	}
	if r1.ToolCallID != "b" || !strings.Contains(r1.Content, `"code":-32601`) || !strings.Contains(r1.Content, "no_such_tool") {
		t.Errorf("response b = %+v", r1)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := langchaingotool.Execute(cancelled, fns, []llms.ToolCall{{ID: "c", FunctionCall: &llms.FunctionCall{Name: "no_such_tool"}}}); err == nil {
		t.Error("Execute with a cancelled context: no error")
	}
}
