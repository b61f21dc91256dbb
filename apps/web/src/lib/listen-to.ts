/**
 * Adds each handler to the target under its event's name and returns what removes them all: one
 * list, so an effect's clean-up cannot forget a listener it added.
 */
export function listenTo(target: EventTarget, handlers: Readonly<Record<string, () => void>>): () => void {
  const listeners = Object.entries(handlers);
  for (const [type, handler] of listeners) target.addEventListener(type, handler);
  return () => {
    for (const [type, handler] of listeners) target.removeEventListener(type, handler);
  };
}
