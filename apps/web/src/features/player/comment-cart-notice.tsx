import { useTranslation } from 'react-i18next';
import { AddFeedback, type AddOutcome } from '../checkout/add-feedback.tsx';
import { type CommentAdd, commentAddName } from './comment-codes.ts';
import './comment-cart.css';

export interface CommentAddOutcome {
  add: CommentAdd;
  outcome: AddOutcome;
}

/** What each product a comment named by code came to, with the add-to-cart button's feedback. */
export default function CommentCartNotice({
  outcomes,
  onDismiss,
}: {
  outcomes: CommentAddOutcome[];
  onDismiss(): void;
}) {
  const { t } = useTranslation();
  return (
    <div className="comment-cart-notice" data-testid="comment-cart-notice">
      <ul>
        {outcomes.map(({ add, outcome }) => (
          <li key={`${add.product.uid}/${add.variantUid}`} data-product-uid={add.product.uid}>
            <span className="comment-cart-notice__name">{commentAddName(add)}</span>
            <AddFeedback outcome={outcome} shopLink={null} />
          </li>
        ))}
      </ul>
      <button type="button" className="link-button" onClick={onDismiss}>
        {t('player.host.dismiss')}
      </button>
    </div>
  );
}
