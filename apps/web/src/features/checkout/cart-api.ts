import { PING_TIMEOUT_MS } from '@vitrine/domain';
import type {
  AddSingleInput,
  ChangeCheckoutProductQuantityRequest,
  PingRequest,
  PingResponse,
} from '@vitrine/protocol';
import { callAsViewer } from '../../lib/session.ts';

/** The cart calls the player makes (spec §7); the checkout screens' calls are in checkout-api.ts. */

export const addSingle = (input: AddSingleInput) => callAsViewer('addSingle', input);

export const changeCheckoutProductQuantity = (
  input: Omit<ChangeCheckoutProductQuantityRequest, 'variantUid'> & { variantUid: string | null },
) => callAsViewer('changeCheckoutProductQuantity', input);

/** `/functions/ping`: the shopper is still on the checkout (spec §7); given up after 10 s (spec §9). */
export function ping(input: PingRequest): Promise<PingResponse> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`ping timed out after ${PING_TIMEOUT_MS} ms`)),
      PING_TIMEOUT_MS,
    );
  });
  return Promise.race([callAsViewer('ping', input), timeout]).finally(() => clearTimeout(timer));
}
