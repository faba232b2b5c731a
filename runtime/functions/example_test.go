package functions_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"

	"github.com/opentoolgen/opentoolgen/examples/weather/weathertool"
	"github.com/opentoolgen/opentoolgen/runtime"
	"github.com/opentoolgen/opentoolgen/runtime/functions"
)

// sunny implements weathertool.Service.
type sunny struct{}

func (sunny) GetCurrentWeather(_ context.Context, a weathertool.GetCurrentWeatherArgs) (string, error) {
	return "Sunny in " + a.CurrentWeatherInfo.Location, nil
}

func (sunny) GetNDayWeatherForecast(_ context.Context, a weathertool.GetNDayWeatherForecastArgs) (string, error) {
	return fmt.Sprintf("Sunny for %d days in %s", a.ForecastWeatherInfo.NumDays, a.ForecastWeatherInfo.Location), nil
}

// callableTool is tRPC-Agent-Go's CallableTool (seed 003) without its
// Declaration.
type callableTool interface {
	Call(ctx context.Context, jsonArgs []byte) (any, error)
}

// trpcTool is a functions.Tool as tRPC-Agent-Go's CallableTool calls it.
type trpcTool struct{ *functions.Tool }

func (t trpcTool) Call(ctx context.Context, jsonArgs []byte) (any, error) {
	result, err := t.Tool.Call(ctx, jsonArgs)
	if err != nil {
		return nil, err
	}
	return result, nil // a json.RawMessage: the framework marshals it as the JSON it is
}

var _ callableTool = trpcTool{}

// A generated tool's functions as tools of an agent framework: each is
// OpenManus-Go's Tool (Name, Description, InputSchema, OutputSchema, Invoke)
// as it is, and its Call is what tRPC-Agent-Go's CallableTool.Call wraps.
func ExampleTool() {
	ctx := context.Background()
	tool, err := weathertool.NewTool(sunny{})
	if err != nil {
		log.Fatal(err)
	}
	functions := tool.Functions() // one per served function
	for _, f := range functions {
		fmt.Println(f.Name(), f.InputSchema()["required"], f.OutputSchema()["required"])
	}
	current := functions[0]
	result, err := current.Invoke(ctx, map[string]any{"currentWeatherInfo": map[string]any{"location": "Paris", "format": "celsius"}})
	fmt.Println(result, err)
	_, err = current.Invoke(ctx, map[string]any{"currentWeatherInfo": map[string]any{"location": "Paris", "format": "kelvin"}})
	var e *runtime.Error // the tool's errors, unchanged: here -32602 with every JSON path
	if errors.As(err, &e) {
		fmt.Println(e.Code, e.Violations())
	}
	raw, err := current.Call(ctx, json.RawMessage(`{"currentWeatherInfo":{"location":"Oslo","format":"celsius"}}`))
	fmt.Println(string(raw), err)
	var callable callableTool = trpcTool{current}
	v, err := callable.Call(ctx, []byte(`{"currentWeatherInfo":{"location":"Rome","format":"celsius"}}`))
	fmt.Printf("%s %v\n", v, err)
	// Output:
	// get_current_weather [currentWeatherInfo] [currentWeather]
	// get_n_day_weather_forecast [forecastWeatherInfo] [forecastWeather]
	// map[currentWeather:Sunny in Paris] <nil>
	// -32602 [/currentWeatherInfo/format: got "kelvin", want one of "celsius", "fahrenheit"]
	// {"currentWeather":"Sunny in Oslo"} <nil>
	// {"currentWeather":"Sunny in Rome"} <nil>
}
