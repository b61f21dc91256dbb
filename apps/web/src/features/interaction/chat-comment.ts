/** A reply as shown under its comment; `private` ones only ever reach their recipient. */
export interface ChatReply {
  uid: string;
  text: string;
  time: number;
  userName: string;
  verified: boolean;
  private: boolean;
}

/** A comment of the chat as shown: a top-level comment with its replies. */
export interface ChatComment {
  uid: string;
  text: string;
  time: number;
  userUid: string;
  userName: string;
  verified: boolean;
  isWinner: boolean;
  /** The viewer's own comment waiting for a moderator (a blocked word): only they see it. */
  held: boolean;
  replies: ChatReply[];
}
