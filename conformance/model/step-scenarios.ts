// The scenarios of the steps across operations (conformance/steps/), one type each, discriminated by `name`.
export interface StepScenario {
  family: "step";
  name: "none yet";
}
