import type { LiveEvent, PlayerSettings } from '@vitrine/protocol';
import { createContext, type RefObject } from 'react';
import type { useHostBridge } from '../host-bridge/host-bridge-context.tsx';
import type { ChatClosedReason } from './chat-panel.tsx';
import type Notifications from './notifications.tsx';
import type { Chat } from './use-chat.ts';
import type { useViewer } from './use-viewer.ts';

// The contract between the player's slots (interaction-slots.tsx, first load) and the interactive
// parts they load (interaction-root.tsx): what the player passes, and the model the parts share.

export type Track = (name: 'user.commented' | 'user.reacted') => void;

/** What the player tells the interactive parts. */
export interface InteractionArgs {
  pageUid: string;
  campaignUid: string;
  event: LiveEvent;
  settings: PlayerSettings;
  videoRef: RefObject<HTMLVideoElement | null>;
  commentsVisible: boolean;
  privateVisible: boolean;
  onOpenPrivate(): void;
  /** The viewer posted this public comment (product codes in it go to the cart, spec §4). */
  onCommentPosted(text: string): void;
  track: Track;
}

/**
 * What the interactive parts share (spec §2 show player, §4 "Comments"): the chat with its unseen
 * counts, the viewer, the account prompt's entry, the comments sheet's list, the notifications.
 */
export interface InteractionModel {
  pageUid: string;
  campaignUid: string;
  event: LiveEvent;
  chat: Chat;
  viewer: ReturnType<typeof useViewer>;
  context: ReturnType<typeof useHostBridge>['context'];
  closedReason: ChatClosedReason;
  unseen: number;
  unseenPrivate: number;
  requestName(): Promise<boolean>;
  openAccount: (() => void) | null;
  /** The list the phone's comments sheet shows. */
  mobileTab: 'public' | 'private';
  setMobileTab(tab: 'public' | 'private'): void;
  notifications: Parameters<typeof Notifications>[0]['docs'];
  /** The show's video: competitions and notices follow the moment it shows. */
  videoRef: InteractionArgs['videoRef'];
  /** The video delay a winner notice waits for, now: measured on a live stream, else the spec's delays. */
  noticeDelayMs(): number;
  onOpenPrivate(): void;
  onCommented(text: string): void;
  track: Track;
}

/**
 * What the interactive parts share (the chat, the viewer, the prompts, the comments sheet's list):
 * null until their code has loaded and the hub has built it. The slots read it; the tabs read the
 * unseen counts from it.
 */
export const InteractionModelContext = createContext<InteractionModel | null>(null);

/** How the hub hands the model to the provider above the player's layout (a state setter). */
export const PublishInteractionContext = createContext<(model: InteractionModel) => void>(() => {});
