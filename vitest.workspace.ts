// Every package and example with tests is one vitest project.
export default ["packages/*", "examples/*"]
