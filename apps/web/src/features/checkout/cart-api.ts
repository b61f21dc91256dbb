import type {
  AddSingleInput,
  CartUpdateResponse,
  ChangeCheckoutProductQuantityRequest,
} from '@vitrine/protocol';
import { callAsViewer } from '../../lib/session.ts';

/** The cart calls the player makes (spec §7); the checkout screens' calls are in checkout-api.ts. */

export const addSingle = (input: AddSingleInput) =>
  callAsViewer<CartUpdateResponse>('/shopapiv2/cart/addSingle', input);

export const changeCheckoutProductQuantity = (
  input: Omit<ChangeCheckoutProductQuantityRequest, 'variantUid'> & { variantUid: string | null },
) => callAsViewer<CartUpdateResponse>('/functions/customerpage/changeCheckoutProductQuantity', input);
