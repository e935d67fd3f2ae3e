// Types of the two undici modules the client loads on their own (see undici-parts.ts; a
// declaration file named after it would be taken for its output). undici ships types for its
// package root only; these say what those modules export, in its own types.
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';
  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
  export default request;
}
