package anthropictool_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/opentoolgen/opentoolgen/adapters/anthropictool"
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

// api stands in for Anthropic's HTTP API on loopback: it answers each
// request with the next canned body and keeps the requests' bodies.
type api struct {
	mu       sync.Mutex
	answers  []string
	requests []map[string]any
}

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var req map[string]any
	if err := json.Unmarshal(b, &req); err != nil || len(a.answers) == 0 {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"unexpected"}}`, 400)
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests = append(a.requests, req)
	w.Header().Set("Content-Type", "application/json")
	io.WriteString(w, a.answers[0])
	a.answers = a.answers[1:]
}

func client(t *testing.T, a *api) anthropic.Client {
	srv := httptest.NewServer(a)
	t.Cleanup(srv.Close)
	return anthropic.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test"), option.WithMaxRetries(0))
}

const toolUses = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1},"content":[
 {"type":"tool_use","id":"tu_1","name":"get_current_weather","input":{"currentWeatherInfo":{"location":"Paris","format":"celsius"}}},
 {"type":"tool_use","id":"tu_2","name":"get_current_weather","input":{"currentWeatherInfo":{"location":"Atlantis","format":"celsius"}}},
 {"type":"tool_use","id":"tu_3","name":"get_current_weather","input":{"currentWeatherInfo":{"location":"Paris","format":"kelvin"}}}]}`

const done = `{"id":"msg_2","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1},"content":[{"type":"text","text":"done"}]}`

// want are the tool results of toolUses: content and is_error.
var want = []struct {
	id, content string
	isError     bool
}{
	{"tu_1", `{"currentWeather":"22 celsius in Paris"}`, false},
	{"tu_2", "no weather under the sea", true},
	{"tu_3", `code -32602: invalid params: /currentWeatherInfo/format: got "kelvin"`, true},
}

// checkResults checks the tool_result blocks of the last message of req.
func checkResults(t *testing.T, req map[string]any) {
	t.Helper()
	msgs, _ := req["messages"].([]any)
	if len(msgs) != 3 {
		t.Fatalf("messages = %v", msgs)
	}
	last := msgs[2].(map[string]any)
	blocks, _ := last["content"].([]any)
	if last["role"] != "user" || len(blocks) != len(want) {
		t.Fatalf("last message = %v", last)
	}
	for i, w := range want {
		b, _ := json.Marshal(blocks[i])
		var r struct {
			Type    string `json:"type"`
			ID      string `json:"tool_use_id"`
			IsError bool   `json:"is_error"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatal(err)
		}
		if r.Type != "tool_result" || r.ID != w.id || r.IsError != w.isError || len(r.Content) != 1 || !strings.Contains(r.Content[0].Text, w.content) {
			t.Errorf("block %d = %s, want %s's result containing %s, is_error %v", i, b, w.id, w.content, w.isError)
		}
	}
}

// TestToolRunner runs a generated tool in the SDK's tool runner over HTTP:
// the declarations reach the request, the model's tool_use blocks run, the
// results and errors (is_error) go back as tool_result blocks.
func TestToolRunner(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	tools, err := anthropictool.Tools(ctx, wt) // the one line
	if err != nil {
		t.Fatal(err)
	}
	a := &api{answers: []string{toolUses, done}}
	c := client(t, a)
	runner := c.Beta.Messages.NewToolRunner(tools, anthropic.BetaToolRunnerParams{
		BetaMessageNewParams: anthropic.BetaMessageNewParams{
			Model:     "claude-test",
			MaxTokens: 1024,
			Messages:  []anthropic.BetaMessageParam{anthropic.NewBetaUserMessage(anthropic.NewBetaTextBlock("weather?"))},
		},
		DisableThread: true,
	})
	final, err := runner.RunToCompletion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(final.Content) != 1 || final.Content[0].Text != "done" {
		t.Errorf("final = %+v", final.Content)
	}
	if len(a.requests) != 2 {
		t.Fatalf("%d requests, want 2", len(a.requests))
	}
	decl, _ := json.Marshal(a.requests[0]["tools"])
	if !strings.Contains(string(decl), `"name":"get_current_weather"`) || !strings.Contains(string(decl), `"enum":["celsius","fahrenheit"]`) || !strings.Contains(string(decl), `"required":["currentWeatherInfo"]`) {
		t.Errorf("declared tools = %s", decl)
	}
	checkResults(t, a.requests[1])
}

// TestMessages declares strict tools for the Messages API and answers a
// model's tool_use blocks with Run.
func TestMessages(t *testing.T) {
	ctx := context.Background()
	wt, err := weathertool.NewTool(weather{})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := anthropictool.New(ctx, wt, anthropictool.Strict())
	if err != nil {
		t.Fatal(err)
	}
	a := &api{answers: []string{toolUses, done}}
	c := client(t, a)
	params := anthropic.MessageNewParams{
		Model:     "claude-test",
		MaxTokens: 1024,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("weather?"))},
		Tools:     ts.Params(),
	}
	msg, err := c.Messages.New(ctx, params)
	if err != nil {
		t.Fatal(err)
	}
	params.Messages = append(params.Messages, msg.ToParam(), ts.Run(ctx, msg)) // the one line that runs
	if _, err := c.Messages.New(ctx, params); err != nil {
		t.Fatal(err)
	}
	decl, _ := json.Marshal(a.requests[0]["tools"])
	if !strings.Contains(string(decl), `"strict":true`) || !strings.Contains(string(decl), `"additionalProperties":false`) {
		t.Errorf("declared tools = %s", decl)
	}
	checkResults(t, a.requests[1])
}
