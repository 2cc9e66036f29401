<?php
// phpBB 3.3: seed the game script through phpBB's own functions (user_add, submit_post, submit_pm).
//   php seed.php DOCROOT PLAN.json OUT.json
// PLAN: GameScript.seed_plan() with BBCode bodies. The installer made the GM (user 2), category
// forum 1 and forum 2 with a welcome topic. A [[pm]] is one PM thread: each later message
// answers the one before (reply_from_msg_id), as the reply button does.
define('IN_PHPBB', true);
$phpbb_root_path = rtrim($argv[1], '/') . '/'; $phpEx = 'php';
$_SERVER['REMOTE_ADDR'] = '127.0.0.1'; $_SERVER['HTTP_HOST'] = '127.0.0.1'; $_SERVER['REQUEST_URI'] = '/seed.php';
include($phpbb_root_path . 'common.php');
include($phpbb_root_path . 'includes/functions_user.php');
include($phpbb_root_path . 'includes/functions_posting.php');
include($phpbb_root_path . 'includes/functions_privmsgs.php');
$plan = json_decode(file_get_contents($argv[2]), true);
function ts($iso) { return (new DateTime($iso))->getTimestamp(); }
$passwords_manager = $phpbb_container->get('passwords.manager');
$user->session_begin(false); $auth->acl($user->data); $user->setup();
// the harness's limits off (flood interval, new-member limits, captchas), pages of per_page, UTC
foreach (['new_member_post_limit' => 0, 'flood_interval' => 0, 'posts_per_page' => $plan['per_page'],
          'topics_per_page' => 25, 'board_timezone' => 'UTC', 'enable_confirm' => 0, 'require_activation' => 0,
          'pm_max_recipients' => 0, 'max_post_urls' => 0] as $k => $v) $config->set($k, $v);
$db->sql_query('UPDATE ' . FORUMS_TABLE . " SET forum_name = '" . $db->sql_escape($plan['category']) . "' WHERE forum_id = 1");
$db->sql_query('UPDATE ' . FORUMS_TABLE . " SET forum_name = '" . $db->sql_escape($plan['forum']) . "', forum_desc = '"
    . $db->sql_escape($plan['forum_description']) . "' WHERE forum_id = 2");
$fid = 2;
$joined = ts($plan['joined']);
$reg = $db->sql_fetchrow($db->sql_query('SELECT group_id FROM ' . GROUPS_TABLE . " WHERE group_name = 'REGISTERED'"));
$gm = (int) $db->sql_fetchfield('user_id', false, $db->sql_query('SELECT user_id FROM ' . USERS_TABLE
    . " WHERE username_clean = '" . $db->sql_escape(utf8_clean_string($plan['gm'])) . "'"));
$db->sql_query('UPDATE ' . USERS_TABLE . " SET user_regdate = $joined, user_timezone = 'UTC' WHERE user_id = $gm");
$ids = [$plan['gm'] => $gm];
foreach ($plan['accounts'] as $n) {
    if (isset($ids[$n])) continue;
    $ids[$n] = (int) user_add(['username' => $n, 'user_password' => $passwords_manager->hash($plan['password']),
        'user_email' => strtolower($n) . '@valfonda.example', 'group_id' => (int) $reg['group_id'], 'user_type' => USER_NORMAL,
        'user_timezone' => 'UTC', 'user_lang' => 'en', 'user_regdate' => $joined, 'user_ip' => '127.0.0.1', 'user_new' => 0]);
}
function act_as($uid) {
    global $db, $user, $auth;
    $row = $db->sql_fetchrow($db->sql_query('SELECT * FROM ' . USERS_TABLE . ' WHERE user_id = ' . (int) $uid));
    $user->data = array_merge($user->data, $row); $user->ip = '127.0.0.1'; $auth->acl($user->data);
}
function store_text($text) {
    $u = $b = $f = ''; generate_text_for_storage($text, $u, $b, $f, true, true, true);
    return [$text, $u, $b];
}
function post($mode, $fid, $tid, $uid, $subject, $text, $time, $forum_name) {
    global $user; act_as($uid);
    [$stored, $u, $b] = store_text($text); $poll = [];
    $data = ['forum_id' => $fid, 'topic_id' => $tid, 'icon_id' => 0, 'enable_bbcode' => true, 'enable_smilies' => true,
        'enable_urls' => true, 'enable_sig' => false, 'message' => $stored, 'message_md5' => md5($stored),
        'bbcode_bitfield' => $b, 'bbcode_uid' => $u, 'post_edit_locked' => 0, 'topic_title' => $subject,
        'notify_set' => false, 'notify' => false, 'post_time' => $time, 'forum_name' => $forum_name,
        'enable_indexing' => true, 'force_approved_state' => true, 'force_visibility' => true];
    submit_post($mode, $subject, $user->data['username'], POST_NORMAL, $poll, $data);
    return $data;
}
$threads = [];
foreach ($plan['threads'] as $t) {
    $by_key = []; foreach ($t['posts'] as $p) $by_key[$p['key']] = $p;
    $tid = 0; $posts = [];
    foreach ($t['posts'] as $p) {
        $quote = '';
        if (!empty($p['quote'])) {  // what phpBB's quote button puts in the reply box
            $q = $by_key[$p['quote']];
            $quote = '[quote="' . $q['author'] . '" post_id=' . $posts[$q['key']]['id'] . ' time=' . ts($q['at'])
                . ' user_id=' . $ids[$q['author']] . ']' . ($q['edited_body'] ?? $q['body']) . "[/quote]\n";
        }
        $subject = $tid ? 'Re: ' . $t['title'] : $t['title'];
        $d = post($tid ? 'reply' : 'post', $fid, $tid, $ids[$p['author']], $subject, $quote . $p['body'], ts($p['at']),
                  $plan['forum']);
        $tid = (int) $d['topic_id']; $pid = (int) $d['post_id'];
        $content = $quote . $p['body'];
        if (!empty($p['edited_at'])) {  // what an edit through posting.php stores
            $content = $quote . $p['edited_body'];
            [$stored, $u, $b] = store_text($content);
            $db->sql_query('UPDATE ' . POSTS_TABLE . ' SET ' . $db->sql_build_array('UPDATE', [
                'post_text' => $stored, 'bbcode_uid' => $u, 'bbcode_bitfield' => $b, 'post_checksum' => md5($stored),
                'post_edit_time' => ts($p['edited_at']), 'post_edit_user' => $ids[$p['author']], 'post_edit_count' => 1,
            ]) . " WHERE post_id = $pid");
        }
        $posts[$p['key']] = ['id' => $pid, 'content' => $content];
    }
    $threads[$t['key']] = ['id' => $tid, 'title' => $t['title'], 'path' => "viewtopic.php?t=$tid",
                           'first_post_id' => reset($posts)['id'], 'posts' => $posts];
}
function pm($from, $to, $subject, $text, $reply_to, $root, $time) {
    global $user, $db; act_as($from);
    [$stored, $u, $b] = store_text($text);
    $data = ['msg_id' => $reply_to, 'reply_from_msg_id' => $reply_to, 'reply_from_root_level' => $root,
        'from_user_id' => $user->data['user_id'], 'from_user_ip' => '127.0.0.1', 'from_username' => $user->data['username'],
        'icon_id' => 0, 'enable_sig' => false, 'enable_bbcode' => true, 'enable_smilies' => true, 'enable_urls' => true,
        'bbcode_bitfield' => $b, 'bbcode_uid' => $u, 'message' => $stored, 'attachment_data' => [], 'filename_data' => [],
        'address_list' => ['u' => [$to => 'to']]];
    $id = (int) submit_pm($reply_to ? 'reply' : 'post', $subject, $data, true);
    $db->sql_query('UPDATE ' . PRIVMSGS_TABLE . " SET message_time = $time WHERE msg_id = $id");
    return $id;
}
$pms = [];
foreach ($plan['pms'] as $c) {
    $prev = 0; $msg_ids = [$c['from'] => [], $c['to'] => []]; $first = 0;
    foreach ($c['messages'] as $m) {
        $other = $m['author'] == $c['from'] ? $c['to'] : $c['from'];
        $prev = pm($ids[$m['author']], $ids[$other], ($prev ? 'Re: ' : '') . $c['subject'], $m['body'], $prev, $first,
                   ts($m['at']));
        $first = $first ?: $prev;
        $msg_ids[$c['from']][] = $prev; $msg_ids[$c['to']][] = $prev;
    }
    $pms[$c['key']] = ['ids' => [$c['from'] => $first, $c['to'] => $first], 'message_ids' => $msg_ids];
}
// deliver every PM to its inbox (what the recipient's first visit to the PM pages does)
foreach ($ids as $uid) {
    act_as($uid);
    $rules = [];
    place_pm_into_folder($rules, false);
}
$cache->purge();
file_put_contents($argv[3], json_encode(['users' => $ids, 'logins' => (object) [], 'category_id' => 1, 'forum_id' => $fid,
    'threads' => $threads, 'pms' => $pms], JSON_PRETTY_PRINT | JSON_UNESCAPED_UNICODE));
