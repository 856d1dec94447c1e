/** `set_agent_controller` (docs/api.md): Replace an agent account's controller key (agent_set_controller; owner only). */
import type { RpcMethodParams, RpcMethodResult } from '../../../src/rpc/method.ts';
import type { setAgentController as method } from '../../../src/rpc/methods/set-agent-controller.ts';
import type { RpcClient } from '../node-client.ts';

export type SetAgentControllerParameters = RpcMethodParams<typeof method>;
export type SetAgentControllerReturnType = RpcMethodResult<typeof method>;

export async function setAgentController(client: RpcClient, params: SetAgentControllerParameters): Promise<SetAgentControllerReturnType> {
  return (await client.request('set_agent_controller', params)) as SetAgentControllerReturnType;
}
