def solution(apis, requester):
    me = apis.supervisor.show_profile()
    passwords = {a["account_name"]: a["password"] for a in apis.supervisor.show_account_passwords()}
    token = apis.phone.login(username=me["email"], password=passwords["phone"])["access_token"]
    contacts, page = [], 0
    while True:
        batch = apis.phone.show_contacts(access_token=token, page_index=page, page_limit=20, relationship="friend")
        if not batch:
            break
        contacts.extend(batch)
        page += 1
    for contact in contacts:
        apis.phone.send_text_message(access_token=token, phone_number=contact["phone_number"], message="See you Sunday.")
    apis.supervisor.complete_task()
