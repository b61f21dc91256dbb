import { createContext } from 'react';
import type { InteractionModel } from './interaction-root.tsx';

/**
 * What the interactive parts share (the chat, the viewer, the prompts, the comments sheet's list):
 * null until their code has loaded and the hub has built it. The slots read it; the tabs read the
 * unseen counts from it.
 */
export const InteractionModelContext = createContext<InteractionModel | null>(null);

/** How the hub hands the model to the provider above the player's layout (a state setter). */
export const PublishInteractionContext = createContext<(model: InteractionModel) => void>(() => {});
