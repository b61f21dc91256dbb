/**
 * What went wrong, said to the staff where it happened (a call refused, a load failed), announced
 * at once; nothing while there is nothing to say.
 */
export function ErrorNotice({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" className="studio-notice studio-notice--error">
      {message}
    </p>
  );
}
